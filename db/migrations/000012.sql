-- Substring lookups by pair keys instead of 000011's whole-word bigrams.
--
-- A bigram needs both words whole, and a query's first and last runs may be
-- cut short (`docker timeout` may be the middle of `mydocker timeouts`), so
-- a query of two or three words had no usable pair and read the trigram
-- index: a few hundred pages of posting lists when its words are common.
-- A pair key keeps the last three characters of the first word and the
-- first three of the second (`docker timeout` is `ker tim`), which a cut
-- word longer than two characters still determines; the query side is
-- database-search/substring-query.ts. Keys are at most 7 characters, so no
-- length limit is needed.

ALTER TABLE search_documents DROP COLUMN bigrams;
DROP FUNCTION ak_search_bigrams(text);

CREATE FUNCTION ak_search_pair_keys(normalized text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT DISTINCT key FROM (
      SELECT right(m.word[1], 3) || ' ' || left(lead(m.word[1]) OVER (ORDER BY m.n), 3) AS key
        FROM regexp_matches(normalized, '[a-z0-9]+', 'g') WITH ORDINALITY AS m(word, n)
    ) pairs
    WHERE key IS NOT NULL)
$$;

ALTER TABLE search_documents
  ADD COLUMN pair_keys text[] GENERATED ALWAYS AS (ak_search_pair_keys(text_norm)) STORED;
CREATE INDEX search_documents_pair_keys ON search_documents USING gin (pair_keys);
