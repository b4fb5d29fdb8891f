-- Search documents are brought up to date off the commit transaction.
--
-- Until now the search triggers (000003.sql) rebuilt a family's documents inside every commit that
-- touched it: normalizing the title, literal and body, hashing exact keys, building the tsvector and
-- pair keys, recounting signals. That made one create_problem transaction cost about nine times the
-- same four INSERTs into bare tables, most of it in the search functions, planned afresh for every
-- single-row statement. Now the same triggers only note what changed, one small row per family (or
-- solution, or discussion) in search_pending, and the worker's catch-up (ak_search_catch_up, run by
-- the render worker as passes come in) takes the noted rows in batches and refreshes their families
-- with the same functions as before, in one set-based pass per batch. The documents a catch-up writes
-- are exactly those a commit wrote before: search answers are the same once it has caught up.
--
-- Records are read from their tables and projections, never from search_documents, so reading a
-- record after its write is unaffected; search lags by the time to the next catch-up (operator
-- status `search_documents`, metric ak_search_documents_lag_seconds).
--
-- The one commit-time reader of search_documents was the duplicate check of a new problem
-- (000020.sql), which found candidates by the literal's key among exact_keys. It now reads the key
-- from the revision itself (problem_revisions.literal_key, computed as the row is written), so a
-- duplicate committed a moment ago is refused even before search has caught up.

CREATE TABLE search_pending (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- family: a problem and its solutions; solution: one solution of `family`; signals: only the outcome
  -- counts of `family`; discussion: the discussion `family`.
  kind       text NOT NULL CHECK (kind IN ('family', 'solution', 'signals', 'discussion')),
  family     text NOT NULL,
  solution   text,
  -- When the change was noted (just before its commit): the lag a catch-up reports is measured from here.
  queued_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE OR REPLACE FUNCTION ak_search_on_problems() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO search_pending (kind, family) SELECT DISTINCT 'family', id FROM changed;
  RETURN NULL;
END
$fn$;

-- An edit inserts its revision before it moves current_revision, so only
-- revisions that are already current (a new record's first) are noted here.
CREATE OR REPLACE FUNCTION ak_search_on_problem_revisions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO search_pending (kind, family)
  SELECT DISTINCT 'family', c.problem_id FROM changed c
    LEFT JOIN problems p ON p.id = c.problem_id
   WHERE TG_OP = 'DELETE' OR p.current_revision = c.revision;
  RETURN NULL;
END
$fn$;

-- A solution moved to another problem leaves one family and joins another: both are noted.
CREATE OR REPLACE FUNCTION ak_search_on_solutions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO search_pending (kind, family, solution)
    SELECT 'solution', problem_id, id FROM changed UNION SELECT 'solution', problem_id, id FROM before_rows;
  ELSE
    INSERT INTO search_pending (kind, family, solution) SELECT DISTINCT 'solution', problem_id, id FROM changed;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION ak_search_on_solution_revisions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO search_pending (kind, family, solution)
  SELECT DISTINCT 'solution', s.problem_id, s.id FROM changed c JOIN solutions s ON s.id = c.solution_id
   WHERE TG_OP = 'DELETE' OR s.current_revision = c.revision;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION ak_search_on_outcomes() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO search_pending (kind, family)
  SELECT DISTINCT 'signals', s.problem_id FROM changed c JOIN solutions s ON s.id = c.solution_id;
  RETURN NULL;
END
$fn$;

-- Replies bump reply_count; only changes a document shows are noted.
CREATE OR REPLACE FUNCTION ak_search_on_discussions() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO search_pending (kind, family)
    SELECT 'discussion', n.id FROM changed n JOIN before_rows o ON o.id = n.id
     WHERE (n.title, n.body, n.product, n.status, n.updated_at) IS DISTINCT FROM
           (o.title, o.body, o.product, o.status, o.updated_at);
  ELSE
    INSERT INTO search_pending (kind, family) SELECT 'discussion', id FROM changed;
  END IF;
  RETURN NULL;
END
$fn$;

-- Takes up to `max_rows` noted changes (the oldest first; rows another catch-up holds are skipped),
-- refreshes their families' documents and deletes the rows, in the caller's transaction: a catch-up
-- that dies leaves its rows for the next. Every family of the batch is locked first, in one sorted
-- call (ak_search_lock), so two catch-ups cannot deadlock on each other's families. Returns when each
-- refreshed change was noted (milliseconds since the epoch), oldest first, for the lag it reports.
CREATE FUNCTION ak_search_catch_up(max_rows integer) RETURNS float8[]
LANGUAGE plpgsql AS $fn$
DECLARE
  taken search_pending[];
  whole text[];
  solution_families text[];
  solution_ids text[];
  signal_families text[];
  discussion_ids text[];
BEGIN
  WITH gone AS (
    DELETE FROM search_pending
     WHERE id IN (SELECT id FROM search_pending ORDER BY id LIMIT max_rows FOR UPDATE SKIP LOCKED)
    RETURNING *)
  SELECT array_agg(g ORDER BY g.id) INTO taken FROM gone g;
  IF taken IS NULL THEN
    RETURN '{}';
  END IF;

  SELECT array_agg(DISTINCT t.family) FILTER (WHERE t.kind = 'family'),
         array_agg(DISTINCT t.family) FILTER (WHERE t.kind = 'discussion')
    INTO whole, discussion_ids FROM unnest(taken) t;
  SELECT array_agg(DISTINCT t.family), array_agg(DISTINCT t.solution)
    INTO solution_families, solution_ids FROM unnest(taken) t
   WHERE t.kind = 'solution' AND NOT t.family = ANY(coalesce(whole, '{}'));
  SELECT array_agg(DISTINCT t.family) INTO signal_families FROM unnest(taken) t
   WHERE t.kind = 'signals' AND NOT t.family = ANY(coalesce(whole, '{}') || coalesce(solution_families, '{}'));

  PERFORM ak_search_lock(ARRAY(SELECT DISTINCT f FROM unnest(
    coalesce(whole, '{}') || coalesce(solution_families, '{}') || coalesce(signal_families, '{}')
    || coalesce(discussion_ids, '{}')) AS f));
  IF whole IS NOT NULL THEN
    PERFORM ak_search_refresh_families(whole);
  END IF;
  IF solution_families IS NOT NULL THEN
    PERFORM ak_search_refresh_families(solution_families, solution_ids);
  END IF;
  IF signal_families IS NOT NULL THEN
    PERFORM ak_search_count_signals(signal_families);
  END IF;
  IF discussion_ids IS NOT NULL THEN
    PERFORM ak_search_refresh_discussions(discussion_ids);
  END IF;
  RETURN ARRAY(SELECT extract(epoch FROM t.queued_at)::float8 * 1000 FROM unnest(taken) t);
END
$fn$;

-- The key of a revision's error literal, as the duplicate check and search's exact keys make it (the
-- MD5 of the normalized literal). Computed here, once per revision, rather than found through search.
ALTER TABLE problem_revisions
  ADD COLUMN literal_key text GENERATED ALWAYS AS (md5(ak_search_normalize(coalesce(error_literal, '')))) STORED;
CREATE INDEX problem_revisions_literal_key ON problem_revisions (literal_key);

-- As in 000020.sql, with the candidates found by their current revision's literal_key.
CREATE OR REPLACE FUNCTION ak_lock_and_find_duplicate_problem(lock_class integer, lock_key text, wanted_key text, wanted_product text)
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
    FROM problem_revisions r
    JOIN problems p ON p.id = r.problem_id AND p.current_revision = r.revision
   WHERE r.literal_key = wanted_key
     AND translate(btrim(r.product), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = wanted_product
   ORDER BY p.created_at, p.id
   LIMIT 1;
  RETURN match_id;
END
$fn$;
