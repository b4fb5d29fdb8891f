-- The exact-key index without a pending list.
--
-- A GIN index with fastupdate (the default) appends new entries to an
-- unsorted pending list, merged into the index only when the list passes
-- gin_pending_list_limit (4 MB) or a vacuum runs; every search of the index
-- reads the whole list. Each create_problem searches this index once, for
-- duplicates (db/queries/duplicates.ts, findProblemByLiteral), so under a
-- stream of writes each commit read hundreds of pending pages: measured
-- under 16 concurrent commits, that check cost about 3 ms of PostgreSQL CPU
-- per commit, against nothing once the list was merged. A document has only
-- a handful of exact keys (the MD5s of its literal, title and key lines), so
-- inserting them straight into the index costs little. The substring,
-- keyword and pair-key indexes, with hundreds of entries per document, keep
-- their pending lists.
ALTER INDEX search_documents_exact SET (fastupdate = off);
-- Turning it off does not merge what is pending already.
SELECT gin_clean_pending_list('search_documents_exact'::regclass);
