-- Search: each problem-family document carries the key of its family's error literal (the MD5 of the
-- normalized literal, as database-search/normalize.ts `keyHash` makes keys), so ranking's second stage
-- (database-search/rerank.ts, `rerankByLiteral`) reads whether a candidate's literal equals the query's
-- message from the search statement: it used to receive every candidate's whole literal (two index
-- lookups each) and normalize each in TypeScript, about 0.3 ms of a search's CPU at 100k records.
-- Null for discussions and for problems without a literal.
ALTER TABLE search_documents ADD COLUMN literal_key text;

-- As in 000003.sql, with literal_key written beside exact_keys.
CREATE OR REPLACE FUNCTION ak_search_refresh_families(families text[], only_solutions text[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(families);

  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, literal_key, tsv, created_at, updated_at)
  SELECT doc.id, doc.type, doc.family, doc.title, doc.snippet, doc.product, doc.status, doc.text_norm,
         ARRAY(SELECT DISTINCT unnest(ak_search_keys(doc.title_n) || ak_search_keys(doc.literal_n)
               || ak_search_keys(array_to_string((string_to_array(doc.body_n, E'\n'))[1:40], E'\n')))),
         doc.literal_key,
         to_tsvector('english'::regconfig, doc.text_norm), doc.created_at, doc.updated_at
    FROM (
      SELECT part.*, concat_ws(E'\n', part.title_n, nullif(part.literal_n, ''), part.body_n, part.extra_n) AS text_norm
        FROM (
          WITH problem AS (
            SELECT p.id, p.status, p.created_at, p.updated_at, r.title, r.body, r.product, r.error_literal, r.tags,
                   ak_search_normalize(r.title) AS title_n,
                   ak_search_normalize(coalesce(r.error_literal, '')) AS literal_n,
                   btrim(coalesce(r.error_literal, '')) <> '' AS has_literal
              FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
             WHERE p.id = ANY(families)
          )
          SELECT p.id, 'problem' AS type, p.id AS family, p.title,
                 ak_search_snippet(coalesce(nullif(btrim(p.error_literal), ''), p.body)) AS snippet,
                 p.product, p.status, p.title_n, p.literal_n,
                 CASE WHEN p.has_literal THEN md5(p.literal_n) END AS literal_key,
                 ak_search_normalize(left(p.body, 8000)) AS body_n,
                 ak_search_normalize(concat_ws(' ', p.product, array_to_string(p.tags, ' '))) AS extra_n,
                 p.created_at, p.updated_at
            FROM problem p WHERE only_solutions IS NULL
          UNION ALL
          SELECT s.id, 'solution', p.id, p.title, ak_search_snippet(sr.body), p.product, s.status, p.title_n, p.literal_n,
                 CASE WHEN p.has_literal THEN md5(p.literal_n) END,
                 ak_search_normalize(concat_ws(E'\n', left(sr.body, 8000), sr.applicability, sr.limitations)),
                 ak_search_normalize(p.product), s.created_at, s.updated_at
            FROM problem p
            JOIN solutions s ON s.problem_id = p.id
            JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
           WHERE only_solutions IS NULL OR s.id = ANY(only_solutions)
        ) part
    ) doc
  ON CONFLICT (id) DO UPDATE SET
    type = EXCLUDED.type, family = EXCLUDED.family, title = EXCLUDED.title, snippet = EXCLUDED.snippet,
    product = EXCLUDED.product, status = EXCLUDED.status, text_norm = EXCLUDED.text_norm,
    exact_keys = EXCLUDED.exact_keys, literal_key = EXCLUDED.literal_key, tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at,
    updated_at = EXCLUDED.updated_at;

  -- Documents whose record is gone (or left the family).
  DELETE FROM search_documents d
   WHERE d.family = ANY(families) AND d.type <> 'discussion'
     AND (only_solutions IS NULL OR d.id = ANY(only_solutions))
     AND NOT EXISTS (
       SELECT 1 FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
        WHERE d.type = 'problem' AND p.id = d.id)
     AND NOT EXISTS (
       SELECT 1 FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
        WHERE d.type = 'solution' AND s.id = d.id AND s.problem_id = d.family);

  PERFORM ak_search_count_signals(families);
END
$fn$;

UPDATE search_documents d
   SET literal_key = md5(ak_search_normalize(r.error_literal))
  FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
 WHERE d.family = p.id AND d.type <> 'discussion' AND btrim(r.error_literal) <> '';
