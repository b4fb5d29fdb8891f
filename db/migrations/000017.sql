-- Search: the champion lists (000016.sql) are built anew only once a fifth of the corpus AND at least
-- `rebuild_min` documents (10,000) have been folded in since the last build.
--
-- In a young corpus a fifth is a few hundred documents: the worker's compaction, every 2 s under a write
-- load, built every list anew almost each time, reading every document, and the write bench's
-- committed-and-rendered rate fell from 0.36x to 0.30x pgbench (the render worker's CPU per write 3.5 ->
-- 5.5 ms, its PostgreSQL backend's 0.5 -> 1.3 ms), in a same-run A/B against main. Folding documents in is
-- cheap; a build only brings lists for terms that became common and a fresh average length.
ALTER TABLE search_champion_state ADD COLUMN rebuild_min integer NOT NULL DEFAULT 10000;

-- As in 000016.sql, with the floor.
CREATE OR REPLACE FUNCTION ak_search_compact_champions(min_changed integer DEFAULT 1) RETURNS integer
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
  IF s.folded + cardinality(changed) > greatest((SELECT count(*) FROM search_documents) * s.rebuild_share, s.rebuild_min) THEN
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
