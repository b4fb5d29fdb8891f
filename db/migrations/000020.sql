-- The duplicate check of a new problem (operations/duplicates.ts, refuseDuplicateProblem) in one
-- call: the duplicate key's advisory lock, then the look-up of an existing problem with the same
-- normalized error literal and product. One round trip per commit instead of two, and the look-up
-- planned once per session instead of on every commit.
--
-- Sent from the worker as a named statement, the look-up was planned anew on every execution:
-- PostgreSQL's plan cache kept choosing custom plans over the generic one it compared them with
-- (a hash join over a sequential scan of problems, estimated for an unknown key), and making them
-- cost 0.25-0.5 ms of the server's CPU per commit at 100k records, against 0.02 ms to run them. Here
-- the plan is generic (plan_cache_mode) and, with hash and merge joins off for this function alone,
-- the plan each custom plan was: the GIN index on exact_keys, then nested loops over the primary
-- keys of problems and problem_revisions. A key many documents share costs one probe per document,
-- never a scan of problems.
--
-- The lock is taken before the look-up's snapshot: in a VOLATILE function each statement takes a new
-- snapshot (READ COMMITTED), so a concurrent writer of the same key, which held the lock until its
-- commit, is seen, as when the worker sent the two statements.
CREATE FUNCTION ak_lock_and_find_duplicate_problem(lock_class integer, lock_key text, wanted_key text, wanted_product text)
RETURNS text
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
DECLARE
  match_id text;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_class, hashtext(lock_key));
  SELECT p.id INTO match_id
    FROM search_documents d
    JOIN problems p ON p.id = d.id
    JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
   WHERE d.exact_keys && ARRAY[wanted_key] AND d.type = 'problem'
     AND translate(btrim(r.product), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = wanted_product
     AND md5(ak_search_normalize(coalesce(r.error_literal, ''))) = wanted_key
   ORDER BY p.created_at, p.id
   LIMIT 1;
  RETURN match_id;
END
$fn$;
