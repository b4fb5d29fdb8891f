-- Search documents have one builder: the worker's (000040.sql). Bulk loads use it too, in slices.
--
-- The seeder, the operator's import and every "catch up until nothing waits" called ak_search_catch_up,
-- which refreshed families with the SQL builder (ak_search_refresh_families, ak_search_refresh_discussions)
-- at about a millisecond of the database's CPU per document, in one session. They now run the worker's
-- catch-up (database-search/search-catch-up.ts): the documents are built in Node while PostgreSQL writes
-- the previous batch, on two or more connections at once. The SQL builder has no caller left and goes.
--
-- Concurrent bulk catch-ups need locks that let them run side by side. ak_search_lock took the whole
-- table (SHARE ROW EXCLUSIVE, which conflicts with itself) for a batch of more than 16 families, so two
-- large batches ran one after the other whatever families they held. Families now fall into 8 slices
-- (hashtext(family) & 7): a large batch takes its slices exclusively, a small one shares its slices and
-- takes its families exclusively as before. A bulk catch-up on several connections gives each connection
-- its own slices (ak_search_pending_slice), so they never wait on each other, and any catch-up that holds
-- a family still waits for any other holding it. Locks are taken slices first, then families, each sorted:
-- no two catch-ups can deadlock.
DROP FUNCTION ak_search_catch_up(integer);
DROP FUNCTION ak_search_refresh_families(text[], text[]);
DROP FUNCTION ak_search_refresh_discussions(text[]);

-- The slice of a family (0 to 7).
CREATE FUNCTION ak_search_slice(family text) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT hashtext(family) & 7 $$;

CREATE OR REPLACE FUNCTION ak_search_lock(families text[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE search_documents IN ROW EXCLUSIVE MODE;
  IF cardinality(families) > 16 THEN
    PERFORM pg_advisory_xact_lock(8150004, slice)
       FROM (SELECT DISTINCT ak_search_slice(f) AS slice FROM unnest(families) AS f ORDER BY 1) slices;
  ELSE
    PERFORM pg_advisory_xact_lock_shared(8150004, slice)
       FROM (SELECT DISTINCT ak_search_slice(f) AS slice FROM unnest(families) AS f ORDER BY 1) slices;
    PERFORM pg_advisory_xact_lock(8150003, key)
       FROM (SELECT DISTINCT hashtext(f) AS key FROM unnest(families) AS f ORDER BY 1) keys;
  END IF;
END
$fn$;

-- Building the indexes of search documents after a bulk load, not row by row during it.
--
-- Each document written updates four GIN indexes (trigrams of the text, the tsvector, the exact keys, the
-- pair keys) and three B-trees besides the primary key: at 100k records most of a bulk catch-up's time in
-- PostgreSQL. When a bulk load starts on an empty search_documents (a new service, the seeder),
-- ak_search_defer_indexes drops every index but the primary key (which the upsert needs) and the family
-- index (which the catch-up's deletes and signal counts read), and keeps their definitions here; the load's end builds them again from here (one CREATE INDEX each, sorted once),
-- and deletes the row of each it built. A load that dies in between leaves the rows: the next bulk
-- catch-up, or the next run of the import, builds them. No catch-up reads these indexes, only searches.
CREATE TABLE search_deferred_indexes (
  name       text PRIMARY KEY,
  definition text NOT NULL
);

-- Drops the indexes of search_documents but its primary key and family index when it holds no document,
-- keeping their definitions in search_deferred_indexes. Returns how many it dropped (0 when documents exist).
CREATE FUNCTION ak_search_defer_indexes() RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  ix record;
  n integer := 0;
BEGIN
  LOCK TABLE search_documents IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT FROM search_documents) THEN
    RETURN 0;
  END IF;
  FOR ix IN
    SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = 'search_documents'
       AND i.indexname NOT IN ('search_documents_pkey', 'search_documents_family')
     ORDER BY 1
  LOOP
    INSERT INTO search_deferred_indexes (name, definition) VALUES (ix.indexname, ix.indexdef) ON CONFLICT DO NOTHING;
    EXECUTE format('DROP INDEX %I', ix.indexname);
    n := n + 1;
  END LOOP;
  RETURN n;
END
$fn$;

-- Builds one deferred index again and forgets its definition; false when it was not deferred (another
-- session built it). Two sessions may build two of them at once (CREATE INDEX shares the table's lock).
-- A GIN build sorts its entries in maintenance_work_mem: the default 64MB spills a million documents'
-- trigrams to disk many times over.
CREATE FUNCTION ak_search_restore_index(index_name text) RETURNS boolean
LANGUAGE plpgsql SET maintenance_work_mem = '256MB' AS $fn$
DECLARE
  def text;
BEGIN
  SELECT definition INTO def FROM search_deferred_indexes WHERE name = index_name FOR UPDATE;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  EXECUTE regexp_replace(def, '^CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ');
  DELETE FROM search_deferred_indexes WHERE name = index_name;
  RETURN true;
END
$fn$;

-- As in 000040.sql, with the documents whose record is gone found among the batch's documents that were
-- not just written, rather than by probing the records' tables for each: the builder writes a document
-- for every record of the batch that exists (database-search/document-text.ts), so the rest are gone.
-- The probe planned as a hash anti join over every solution, a cost per batch that grew with the corpus.
CREATE OR REPLACE FUNCTION ak_search_put_documents(
  families text[], solution_families text[], only_solutions text[], signal_families text[], discussion_ids text[],
  docs json)
RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  written text[];
BEGIN
  WITH put AS (
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
      tsv = EXCLUDED.tsv, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
    RETURNING d.id)
  SELECT coalesce(array_agg(id), '{}') INTO written FROM put;

  -- Documents whose record is gone (or left the family): of whole families, of the noted solutions, of
  -- the noted discussions. One statement each, so that each reads its documents through an index.
  DELETE FROM search_documents d
   WHERE d.family = ANY(families) AND d.type <> 'discussion' AND d.id NOT IN (SELECT unnest(written));
  DELETE FROM search_documents d
   WHERE d.id = ANY(only_solutions) AND d.family = ANY(solution_families) AND d.type <> 'discussion'
     AND d.id NOT IN (SELECT unnest(written));
  DELETE FROM search_documents d
   WHERE d.id = ANY(discussion_ids) AND d.type = 'discussion' AND d.id NOT IN (SELECT unnest(written));

  PERFORM ak_search_count_signals(families || solution_families || signal_families);
END
$fn$;

-- Building every champion list sorts each document's weights for every common term by term and weight:
-- some 40 rows per document, far past the default work_mem, so the sort spilled to disk in many runs
-- (24 s for 100k records; 14 s with the sort in memory). A build runs once after a bulk load, or when a
-- fifth of the corpus changed.
ALTER FUNCTION ak_search_build_champions(integer, integer) SET work_mem = '256MB';
