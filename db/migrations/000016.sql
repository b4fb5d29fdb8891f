-- Search: champion lists, postings ordered by term weight for the common terms.
--
-- A keyword search asks the GIN index on tsv for the records holding its
-- terms, and GIN reads every posting of every term before it returns a row:
-- at 100k documents `error` alone is 26,000 postings (6 ms), and the looser
-- sources' ORs of common terms 2 to 12 ms, though each source keeps 200 rows.
-- For every term held by at least `min_docs` documents, search_champions
-- keeps the `list_size` documents where the term weighs most (its BM25F
-- weight without the idf, the one database-search/rerank.ts gives it), and
-- a keyword search reads the top of those lists (a B-tree range, stopping at
-- its limit) instead of the term's posting list; rarer terms are read through
-- GIN as before, their lists being short (README, Search: Champion lists).
--
-- The lists are kept off the commit transaction: a commit only stamps the
-- documents whose text it changed with its transaction id (`changed_xid`,
-- a row trigger that runs only when tsv or the title changed), and the
-- worker's compaction (ak_search_compact_champions, after render passes)
-- folds the documents stamped since the last one into the lists. Until then
-- a search reads those few documents directly (`changed_xid >= watermark`,
-- their own index); when they are too many it does not use the lists.

ALTER TABLE search_documents ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE search_documents ALTER COLUMN changed_xid SET DEFAULT pg_current_xact_id();
CREATE INDEX search_documents_changed ON search_documents (changed_xid);

CREATE FUNCTION ak_search_stamp_changed() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  RETURN NEW;
END
$fn$;
-- title_tsv is generated from title after BEFORE triggers run, so the title itself is compared.
CREATE TRIGGER search_documents_stamp BEFORE UPDATE ON search_documents FOR EACH ROW
  WHEN (OLD.tsv IS DISTINCT FROM NEW.tsv OR OLD.title IS DISTINCT FROM NEW.title)
  EXECUTE FUNCTION ak_search_stamp_changed();

-- Terms that have a list (their document count when the lists were built).
CREATE TABLE search_champion_terms (
  lexeme text PRIMARY KEY,
  docs   integer NOT NULL
);

CREATE TABLE search_champions (
  lexeme text NOT NULL,
  weight real NOT NULL,
  id     text NOT NULL
);
CREATE INDEX search_champions_list ON search_champions (lexeme, weight DESC, id);
CREATE INDEX search_champions_id ON search_champions (id);

-- One row. `watermark`: every document stamped below it is in the lists (as of its last stamp); documents
-- stamped at or above it are read directly. `average_length`: the corpus's mean text length in words when
-- the lists were built, which each weight's length normalization uses.
CREATE TABLE search_champion_state (
  singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  built          boolean NOT NULL DEFAULT false,
  watermark      xid8 NOT NULL DEFAULT '0',
  list_size      integer NOT NULL DEFAULT 500,
  min_docs       integer NOT NULL DEFAULT 500,
  average_length float8 NOT NULL DEFAULT 1,
  -- Documents folded in since the last full build: past a fifth of the corpus the lists are built again
  -- (terms that became common get lists, the average length is taken again, deleted documents leave).
  folded         integer NOT NULL DEFAULT 0,
  rebuild_share  float8 NOT NULL DEFAULT 0.2,
  built_at       timestamptz,
  compacted_at   timestamptz
);
INSERT INTO search_champion_state DEFAULT VALUES;

-- A term's weight in a document: BM25F's term frequency part with k1 0.6, b 0.3 and a title field of
-- weight 2 (database-search/ranking.ts, TERM_WEIGHTING; rerank.ts applies it with the idf).
CREATE FUNCTION ak_search_term_weights(tsv tsvector, title_tsv tsvector, average_length float8)
RETURNS TABLE (lexeme text, weight real)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH t AS (SELECT u.lexeme, cardinality(u.positions) AS tf FROM unnest(tsv) u),
       len AS (SELECT greatest(1, coalesce(sum(tf), 0)) AS n FROM t)
  SELECT t.lexeme,
         (x.tf * 1.6 / (0.6 + x.tf))::real
    FROM t CROSS JOIN len
    LEFT JOIN LATERAL (SELECT cardinality(h.positions) AS tf FROM unnest(title_tsv) h WHERE h.lexeme = t.lexeme) ti ON true
   CROSS JOIN LATERAL (SELECT greatest(t.tf, 1) / (0.7 + 0.3 * len.n / average_length) + 2 * coalesce(ti.tf, 0) AS tf) x
$$;

-- Builds every list again. The watermark is the oldest transaction still running before the documents
-- are read: every transaction below it had finished, so its stamps are visible and folded in.
CREATE FUNCTION ak_search_build_champions(list_size integer DEFAULT NULL, min_docs integer DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  mark xid8 := pg_snapshot_xmin(pg_current_snapshot());
  s search_champion_state;
  average float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ak_search_champions'));
  SELECT * INTO s FROM search_champion_state FOR UPDATE;
  list_size := coalesce(list_size, s.list_size);
  min_docs := coalesce(min_docs, s.min_docs);
  SELECT coalesce(avg(n), 1) INTO average
    FROM (SELECT (SELECT sum(cardinality(u.positions)) FROM unnest(d.tsv) u) AS n FROM search_documents d) x;
  average := greatest(average, 1);
  DELETE FROM search_champions;
  DELETE FROM search_champion_terms;
  INSERT INTO search_champion_terms (lexeme, docs)
    SELECT word, ndoc FROM ts_stat('SELECT tsv FROM search_documents') WHERE ndoc >= min_docs;
  INSERT INTO search_champions (lexeme, weight, id)
    SELECT lexeme, weight, id FROM (
      SELECT w.lexeme, w.weight, d.id,
             row_number() OVER (PARTITION BY w.lexeme ORDER BY w.weight DESC, d.id) AS r
        FROM search_documents d
       CROSS JOIN LATERAL ak_search_term_weights(d.tsv, d.title_tsv, average) w
       WHERE w.lexeme IN (SELECT lexeme FROM search_champion_terms)) ranked
     WHERE r <= list_size;
  UPDATE search_champion_state
     SET built = true, watermark = mark, list_size = ak_search_build_champions.list_size,
         min_docs = ak_search_build_champions.min_docs, average_length = average, folded = 0,
         built_at = now(), compacted_at = now();
END
$fn$;

-- The `list_size` documents of the corpus where `lexeme` weighs most, read through its postings (GIN).
CREATE FUNCTION ak_search_champions_of(lexemes text[], list_size integer, average_length float8)
RETURNS TABLE (lexeme text, weight real, id text)
LANGUAGE sql STABLE AS $$
  SELECT lexeme, weight, id FROM (
    SELECT x.lexeme, w.weight, d.id, row_number() OVER (PARTITION BY x.lexeme ORDER BY w.weight DESC, d.id) AS r
      FROM unnest(lexemes) AS x(lexeme)
     CROSS JOIN LATERAL (SELECT d.id, d.tsv, d.title_tsv FROM search_documents d WHERE d.tsv @@ quote_literal(x.lexeme)::tsquery) d
     CROSS JOIN LATERAL ak_search_term_weights(d.tsv, d.title_tsv, average_length) w
     WHERE w.lexeme = x.lexeme) ranked
   WHERE r <= list_size
$$;

-- Folds the documents stamped since the last compaction into the lists, when at least `min_changed` are
-- waiting: their old entries out, their weights for the listed terms in, each list they entered cut back to
-- its size. That is exact while no entry lost weight: the documents outside a list weigh no more than its
-- last, and only the stamped ones changed. A list where one did (an edit took the term out, or made it
-- weigh less) is read again from the term's postings, in full. Builds every list when they were never built
-- or a fifth of the corpus has been folded since the last build. Returns how many documents it folded
-- (-1: it built every list). Documents deleted since the last build keep their entries until the next:
-- a search joins every entry to its document, so they are never found, and a list is short by them.
CREATE FUNCTION ak_search_compact_champions(min_changed integer DEFAULT 1) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  mark xid8 := pg_snapshot_xmin(pg_current_snapshot());
  s search_champion_state;
  changed text[];
  touched text[];
  refill text[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('ak_search_champions'));
  SELECT * INTO s FROM search_champion_state FOR UPDATE;
  IF NOT s.built THEN
    PERFORM ak_search_build_champions();
    RETURN -1;
  END IF;
  SELECT array_agg(id) INTO changed FROM search_documents WHERE changed_xid >= s.watermark;
  IF coalesce(cardinality(changed), 0) < greatest(min_changed, 1) THEN
    RETURN 0;
  END IF;
  IF s.folded + cardinality(changed) > (SELECT count(*) FROM search_documents) * s.rebuild_share THEN
    PERFORM ak_search_build_champions();
    RETURN -1;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS ak_search_champions_left (lexeme text, weight real, id text) ON COMMIT DELETE ROWS;
  WITH old AS (DELETE FROM search_champions WHERE id = ANY(changed) RETURNING lexeme, weight, id)
  INSERT INTO ak_search_champions_left SELECT * FROM old;
  WITH fresh AS (
    INSERT INTO search_champions (lexeme, weight, id)
    SELECT w.lexeme, w.weight, d.id
      FROM search_documents d
     CROSS JOIN LATERAL ak_search_term_weights(d.tsv, d.title_tsv, s.average_length) w
     WHERE d.id = ANY(changed) AND w.lexeme IN (SELECT lexeme FROM search_champion_terms)
    RETURNING lexeme)
  SELECT array_agg(DISTINCT lexeme) INTO touched FROM fresh;
  SELECT array_agg(DISTINCT o.lexeme) INTO refill FROM ak_search_champions_left o
   WHERE NOT EXISTS (SELECT FROM search_champions c WHERE c.lexeme = o.lexeme AND c.id = o.id AND c.weight >= o.weight);
  IF refill IS NOT NULL THEN
    DELETE FROM search_champions WHERE lexeme = ANY(refill);
    INSERT INTO search_champions (lexeme, weight, id)
      SELECT * FROM ak_search_champions_of(refill, s.list_size, s.average_length);
  END IF;
  DELETE FROM search_champions c
   USING (SELECT t.lexeme, cut.weight, cut.id
            FROM unnest(coalesce(touched, '{}')) AS t(lexeme)
           CROSS JOIN LATERAL (SELECT x.weight, x.id FROM search_champions x WHERE x.lexeme = t.lexeme
                                ORDER BY x.weight DESC, x.id OFFSET s.list_size - 1 LIMIT 1) cut
           WHERE NOT t.lexeme = ANY(coalesce(refill, '{}'))) edge
   WHERE c.lexeme = edge.lexeme AND (c.weight < edge.weight OR (c.weight = edge.weight AND c.id > edge.id));
  UPDATE search_champion_state
     SET watermark = mark, folded = folded + cardinality(changed), compacted_at = now();
  RETURN cardinality(changed);
END
$fn$;
