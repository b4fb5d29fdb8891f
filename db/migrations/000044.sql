-- Substring lookups whose cost follows the page, not how many records share the query's pair keys.
--
-- A GIN index answers `pair_keys @> keys` only after reading every posting of the keys into a bitmap:
-- at a million records a fragment of a common literal (`failed to solve: process`) is held by 24,000
-- of them, and its bitmap cost 6 ms (26 ms on a loaded machine) before the source kept 50. Each
-- document's keys are now indexed within one of 16 buckets of the documents (by a hash of the id), and
-- the substring source reads bucket after bucket, stopping once it holds its 50: a common fragment
-- reads one sixteenth of its postings, a rare one sixteen short posting lists
-- (db/queries/search/statement-text.ts).
CREATE FUNCTION ak_search_pair_bucket(id text) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT hashtext(id) & 15 $$;

-- Each key prefixed with its bucket (`3 ker tim`): the query's keys for bucket b are its keys so prefixed.
CREATE FUNCTION ak_search_bucket_keys(keys text[], bucket integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT bucket::text || ' ' || k FROM unnest(keys) AS k)
$$;

-- A GIN build sorts its entries in maintenance_work_mem (as ak_search_restore_index, 000041.sql, sets it).
SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX search_documents_pair_keys_bucketed ON search_documents
  USING gin (ak_search_bucket_keys(pair_keys, ak_search_pair_bucket(id)));
DROP INDEX search_documents_pair_keys;

-- The planner's statistics on pair_keys (the most common keys and their shares), as the substring
-- source reads them to look a query up by its rarest keys: the four keys of its longest words were
-- often a common literal's own (`sqlalchemy.exc.timeouterror: queuepool limit of size 71 overflow`
-- read 24,000 records holding `ror que`, `exc tim`, `ool lim`, `emy exc` and kept 50 of them after
-- checking 20,812, where `ize 71` is held by 55). IMMUTABLE as in 000018.sql: evaluated when
-- the statement is planned, kept by its generic plan until ANALYZE invalidates it. NULL without statistics.
CREATE FUNCTION ak_search_pair_key_elems() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT most_common_elems::text::text[] FROM pg_stats
   WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'pair_keys'
     AND most_common_elems IS NOT NULL
$$;

CREATE FUNCTION ak_search_pair_key_freqs() RETURNS real[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT most_common_elem_freqs FROM pg_stats
   WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'pair_keys'
     AND most_common_elems IS NOT NULL
$$;
