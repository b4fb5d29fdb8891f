-- The outcome-signal recount of a family reads that family's documents only.
--
-- ak_search_count_signals (000003.sql) runs in every commit that refreshes a
-- problem family (every new problem, solution, revision and outcome). As a
-- LANGUAGE sql function its UPDATE was planned without knowing `families`,
-- for an estimated 5 % of all documents, and the plan joined that estimate
-- against a sequential scan of search_documents: each commit read every
-- document, so a commit's cost grew with the corpus (25 ms of 43 for one
-- revision at 18,000 documents). The same statement in PL/pgSQL, planned
-- for the families it is given (force_custom_plan), reads them through
-- search_documents_family and the primary key. What it computes is unchanged.
CREATE OR REPLACE FUNCTION ak_search_count_signals(families text[]) RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $fn$
BEGIN
  WITH latest AS (
    SELECT DISTINCT ON (o.solution_id, o.identity_id) s.problem_id, o.solution_id, o.signal
      FROM solutions s JOIN outcomes o ON o.solution_id = s.id
     WHERE s.problem_id = ANY(families)
     ORDER BY o.solution_id, o.identity_id, o.created_at DESC, o.id DESC
  ), per_solution AS (
    SELECT problem_id, solution_id AS id,
           count(*) FILTER (WHERE signal = 'worked') AS worked,
           count(*) FILTER (WHERE signal = 'partially_worked') AS partially_worked,
           count(*) FILTER (WHERE signal = 'did_not_work') AS did_not_work
      FROM latest GROUP BY problem_id, solution_id
  ), counts AS (
    SELECT id, worked, partially_worked, did_not_work FROM per_solution
    UNION ALL
    SELECT problem_id, sum(worked), sum(partially_worked), sum(did_not_work) FROM per_solution GROUP BY problem_id
  ), target AS (
    SELECT d.id, coalesce(c.worked, 0)::int AS worked, coalesce(c.partially_worked, 0)::int AS partially_worked,
           coalesce(c.did_not_work, 0)::int AS did_not_work
      FROM search_documents d LEFT JOIN counts c ON c.id = d.id
     WHERE d.family = ANY(families) AND d.type <> 'discussion'
  )
  UPDATE search_documents d
     SET worked = t.worked, partially_worked = t.partially_worked, did_not_work = t.did_not_work
    FROM target t
   WHERE d.id = t.id
     AND (d.worked, d.partially_worked, d.did_not_work) IS DISTINCT FROM (t.worked, t.partially_worked, t.did_not_work);
END
$fn$;
