-- Search: the planner's statistics on search_documents.tsv (its most common lexemes and their
-- frequencies, which ANALYZE and autovacuum keep), as the search statement reads them for each term's
-- share of all documents (db/queries/search-families.ts, termSharesSql).
--
-- Read from pg_stats in the statement, they cost a keyword search about 0.35 ms at 100k (a paired
-- comparison over 300 symptoms): the view's joins and a cast of the ~700 lexemes from anyarray to text
-- and back to text[], on every execution. These functions are declared IMMUTABLE so the planner
-- evaluates them once, when it plans the statement, and a prepared statement's generic plan (the API's,
-- db/queries/search.ts) keeps their values as constants. That is as fresh as the statistics: ANALYZE
-- (and autovacuum's) invalidates every cached plan that reads search_documents, and the next execution
-- plans again and reads the new statistics; an unprepared statement reads them each time.
-- NULL while the table has no statistics (never analyzed).
CREATE FUNCTION ak_search_term_elems() RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT most_common_elems::text::text[] FROM pg_stats
   WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'tsv'
     AND most_common_elems IS NOT NULL
$$;

CREATE FUNCTION ak_search_term_freqs() RETURNS real[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT most_common_elem_freqs FROM pg_stats
   WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'tsv'
     AND most_common_elems IS NOT NULL
$$;
