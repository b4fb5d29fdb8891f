-- Search at 100k records: two stored columns that let each search read an
-- index instead of computing per candidate (README, Search: Bounds).
--
-- bigrams (GIN): each pair of adjacent words of the normalized text, a word
--   being a run of [a-z0-9]. A record containing a query as a substring holds
--   every pair of whole words inside the query, so `bigrams @> pairs` finds a
--   superset of the substring matches that a strpos() check then narrows.
--   The trigram index has to intersect the posting lists of every trigram of
--   the query, a few hundred pages when the words are common; a pair of
--   words is rare even when each word is common. Queries without a whole pair
--   (one word, or a fragment of one) still use the trigram index. Pairs over
--   100 characters are left out (a GIN entry must fit in a third of a page),
--   and the query side skips them too (database-search/substring-query.ts).
--
-- title_tsv: the English tsvector of the title, which ranking compared with
--   the query's terms by calling to_tsvector for every candidate.
--
-- Both are generated columns, so the refresh functions of 000003.sql fill
-- them without change.

CREATE FUNCTION ak_search_bigrams(normalized text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT DISTINCT pair FROM (
      SELECT m.word[1] || ' ' || lead(m.word[1]) OVER (ORDER BY m.n) AS pair
        FROM regexp_matches(normalized, '[a-z0-9]+', 'g') WITH ORDINALITY AS m(word, n)
    ) pairs
    WHERE pair IS NOT NULL AND length(pair) <= 100)
$$;

ALTER TABLE search_documents
  ADD COLUMN bigrams text[] GENERATED ALWAYS AS (ak_search_bigrams(text_norm)) STORED,
  ADD COLUMN title_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED;

CREATE INDEX search_documents_bigrams ON search_documents USING gin (bigrams);
