-- Search documents built by the worker, not by SQL functions.
--
-- The catch-up of 000021.sql refreshed each noted family with ak_search_refresh_families, which runs
-- the normalization rules (ak_search_normalize, some thirty regular expressions, four times per
-- document), the key-line test for every line, and the pair keys in PostgreSQL's regular expression
-- engine: about two thirds of the database's CPU per indexed document, and in the one session the
-- catch-up has. The worker's catch-up (database-search/search-catch-up.ts) now reads the families'
-- current rows, normalizes and keys them with the same rules in TypeScript (database-search/
-- normalize.ts; test/database-search/normalize-sql.test.ts holds the two engines to the same output,
-- and test/database-search/document-build.test.ts the documents the two catch-ups write), and writes
-- the documents with the functions below. What stays here is what only PostgreSQL computes alike:
-- the snippet (its [[:space:]] class), the tsvectors, and the counts.
--
-- pair_keys stops being a generated column (000012.sql) so the worker writes it; the SQL refresh
-- functions, still used by bulk loads and kept as the reference, write it themselves. Both builders
-- write the key arrays in byte order (they are sets, read with && and @>; a fixed order makes the
-- documents of the two builders equal to the byte).

ALTER TABLE search_documents ALTER COLUMN pair_keys DROP EXPRESSION;

-- A text changed in place without its keys (the redaction of stored records, cli/redact-stored.ts)
-- takes its pair keys along, as the generated column did: no key outlives the text it came from.
CREATE FUNCTION ak_search_pair_keys_follow() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.pair_keys := ak_search_pair_keys(NEW.text_norm);
  RETURN NEW;
END
$fn$;
CREATE TRIGGER search_documents_pair_keys BEFORE UPDATE OF text_norm ON search_documents FOR EACH ROW
  WHEN (NEW.text_norm IS DISTINCT FROM OLD.text_norm AND NEW.pair_keys IS NOT DISTINCT FROM OLD.pair_keys)
  EXECUTE FUNCTION ak_search_pair_keys_follow();

-- Locks the families (ak_search_lock, sorted) and then reads, in a snapshot taken after the lock, what
-- their documents are made of: for each problem of `families` its current revision, and its solutions
-- (all of them, or only `only_solutions` for the problems of `solution_families`); each discussion of
-- `discussion_ids`. Texts come as the documents cut them (a body's first 8,000 characters), timestamps
-- as text so that they go back unchanged to the microsecond.
CREATE FUNCTION ak_search_document_sources(
  lock_families text[], families text[], solution_families text[], only_solutions text[], discussion_ids text[])
RETURNS TABLE (kind text, id text, family text, title text, literal text, has_literal boolean, body text, extra text,
               product text, status text, snippet text, created_at text, updated_at text)
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(lock_families);
  RETURN QUERY
  WITH problem AS (
    SELECT p.id, p.status, p.created_at, p.updated_at, r.title, r.body, r.product, r.error_literal, r.tags,
           p.id = ANY(families) AS whole
      FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
     WHERE p.id = ANY(families) OR p.id = ANY(solution_families)
  )
  SELECT 'problem', p.id, p.id, p.title, coalesce(p.error_literal, ''), btrim(coalesce(p.error_literal, '')) <> '',
         left(p.body, 8000), concat_ws(' ', p.product, array_to_string(p.tags, ' ')), p.product,
         CASE WHEN p.whole THEN p.status END,
         CASE WHEN p.whole THEN ak_search_snippet(coalesce(nullif(btrim(p.error_literal), ''), p.body)) END,
         p.created_at::text, p.updated_at::text
    FROM problem p
  UNION ALL
  SELECT 'solution', s.id, p.id, NULL, NULL, NULL,
         concat_ws(E'\n', left(sr.body, 8000), sr.applicability, sr.limitations), NULL, NULL, s.status,
         ak_search_snippet(sr.body), s.created_at::text, s.updated_at::text
    FROM problem p
    JOIN solutions s ON s.problem_id = p.id
    JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
   WHERE p.whole OR s.id = ANY(only_solutions)
  UNION ALL
  SELECT 'discussion', x.id, x.id, x.title, NULL, NULL, left(x.body, 8000), NULL, x.product, x.status,
         ak_search_snippet(x.body), x.created_at::text, x.updated_at::text
    FROM discussions x WHERE x.id = ANY(discussion_ids);
END
$fn$;

-- Writes the documents the worker built for a catch-up's batch and removes those whose record is
-- gone, as ak_search_refresh_families and ak_search_refresh_discussions do, then recounts signals.
-- `docs`: one object per document with the columns of search_documents the worker computes.
-- Callers hold the families' locks (ak_search_document_sources, in the same transaction).
CREATE FUNCTION ak_search_put_documents(
  families text[], solution_families text[], only_solutions text[], signal_families text[], discussion_ids text[],
  docs json)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, literal_key, pair_keys, tsv,
     created_at, updated_at)
  SELECT x.id, x.type, x.family, x.title, x.snippet, x.product, x.status, x.text_norm, x.exact_keys,
         x.literal_key, x.pair_keys, to_tsvector('english'::regconfig, x.text_norm), x.created_at, x.updated_at
    FROM json_to_recordset(docs) AS x(id text, type text, family text, title text, snippet text, product text,
         status text, text_norm text, exact_keys text[], literal_key text, pair_keys text[],
         created_at timestamptz, updated_at timestamptz)
  ON CONFLICT (id) DO UPDATE SET
    type = EXCLUDED.type, family = EXCLUDED.family, title = EXCLUDED.title, snippet = EXCLUDED.snippet,
    product = EXCLUDED.product, status = EXCLUDED.status, text_norm = EXCLUDED.text_norm,
    exact_keys = EXCLUDED.exact_keys, literal_key = EXCLUDED.literal_key, pair_keys = EXCLUDED.pair_keys,
    tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at;

  -- Documents whose record is gone (or left the family): whole families, then the noted solutions.
  DELETE FROM search_documents d
   WHERE d.type <> 'discussion'
     AND (d.family = ANY(families) OR (d.family = ANY(solution_families) AND d.id = ANY(only_solutions)))
     AND NOT EXISTS (
       SELECT 1 FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
        WHERE d.type = 'problem' AND p.id = d.id)
     AND NOT EXISTS (
       SELECT 1 FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
        WHERE d.type = 'solution' AND s.id = d.id AND s.problem_id = d.family);
  DELETE FROM search_documents d
   WHERE d.id = ANY(discussion_ids) AND d.type = 'discussion' AND NOT EXISTS (SELECT 1 FROM discussions x WHERE x.id = d.id);

  PERFORM ak_search_count_signals(families || solution_families || signal_families);
END
$fn$;

-- The pair keys in byte order, as the worker writes them (000012.sql left them in the order of a hash).
CREATE OR REPLACE FUNCTION ak_search_pair_keys(normalized text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT DISTINCT key COLLATE "C" FROM (
      SELECT right(m.word[1], 3) || ' ' || left(lead(m.word[1]) OVER (ORDER BY m.n), 3) AS key
        FROM regexp_matches(normalized, '[a-z0-9]+', 'g') WITH ORDINALITY AS m(word, n)
    ) pairs
    WHERE key IS NOT NULL
    ORDER BY 1)
$$;

-- As in 000015.sql and 000003.sql, with pair_keys written now that it is no longer generated, and the
-- exact keys in byte order: the documents the two builders write are the same to the byte.
CREATE OR REPLACE FUNCTION ak_search_refresh_families(families text[], only_solutions text[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(families);

  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, literal_key, pair_keys, tsv,
     created_at, updated_at)
  SELECT doc.id, doc.type, doc.family, doc.title, doc.snippet, doc.product, doc.status, doc.text_norm,
         ARRAY(SELECT DISTINCT k COLLATE "C" FROM unnest(ak_search_keys(doc.title_n) || ak_search_keys(doc.literal_n)
               || ak_search_keys(array_to_string((string_to_array(doc.body_n, E'\n'))[1:40], E'\n'))) AS k
               ORDER BY 1),
         doc.literal_key, ak_search_pair_keys(doc.text_norm),
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
    exact_keys = EXCLUDED.exact_keys, literal_key = EXCLUDED.literal_key, pair_keys = EXCLUDED.pair_keys,
    tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at;

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

CREATE OR REPLACE FUNCTION ak_search_refresh_discussions(ids text[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM ak_search_lock(ids);

  INSERT INTO search_documents AS d
    (id, type, family, title, snippet, product, status, text_norm, exact_keys, pair_keys, tsv, created_at, updated_at)
  SELECT doc.id, 'discussion', doc.id, doc.title, ak_search_snippet(doc.body), doc.product, doc.status, doc.text_norm,
         ARRAY(SELECT DISTINCT k COLLATE "C" FROM unnest(ak_search_keys(doc.title_n)
               || ak_search_keys(array_to_string((string_to_array(doc.body_n, E'\n'))[1:40], E'\n'))) AS k
               ORDER BY 1),
         ak_search_pair_keys(doc.text_norm),
         to_tsvector('english'::regconfig, doc.text_norm), doc.created_at, doc.updated_at
    FROM (
      SELECT part.*, concat_ws(E'\n', part.title_n, part.body_n, ak_search_normalize(part.product)) AS text_norm
        FROM (
          SELECT x.id, x.title, x.body, x.product, x.status, x.created_at, x.updated_at,
                 ak_search_normalize(x.title) AS title_n, ak_search_normalize(left(x.body, 8000)) AS body_n
            FROM discussions x WHERE x.id = ANY(ids)
        ) part
    ) doc
  ON CONFLICT (id) DO UPDATE SET
    title = EXCLUDED.title, snippet = EXCLUDED.snippet, product = EXCLUDED.product, status = EXCLUDED.status,
    text_norm = EXCLUDED.text_norm, exact_keys = EXCLUDED.exact_keys, pair_keys = EXCLUDED.pair_keys,
    tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at;

  DELETE FROM search_documents d
   WHERE d.id = ANY(ids) AND d.type = 'discussion' AND NOT EXISTS (SELECT 1 FROM discussions x WHERE x.id = d.id);
END
$fn$;
