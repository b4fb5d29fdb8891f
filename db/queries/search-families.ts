/**
 * SQL the search statement (db/queries/search.ts) reads for the second
 * ranking stage (database-search/rerank.ts), as fragments of that one
 * statement, so a search pays no round trip for them: each page row's
 * term counts, and the share of all documents holding each query term.
 */

/**
 * The query's terms as their lexemes with their position (`lexemes`, `n`),
 * one row per term, for `termCountsSql`; `terms` is a text[] of single-term
 * tsquery texts (`findQueryTerms`, 'postgr'), or of alias groups
 * ('postgr' | 'postgresql', database-search/term-aliases.ts), whose row
 * holds each of the group's lexemes.
 */
export const termLexemesSql = (terms: string) =>
  `SELECT array_remove(tsvector_to_array(t::tsvector), '|') AS lexemes, n FROM unnest(${terms}::text[]) WITH ORDINALITY AS q(t, n)`;

/**
 * How often each query term (the relation `term`, from `termLexemesSql`)
 * occurs in document `d`'s text and title, aligned with the terms, and the
 * text's length in words: read from its stored `tsv` and `title_tsv` (a few
 * dozen lexemes each). An alias group counts its lexemes together. Columns
 * `in_text`, `in_title`, `length`.
 */
export const termCountsSql = (d: string, term: string) => `
       ARRAY(SELECT coalesce((SELECT sum(cardinality(u.positions)) FROM unnest(${d}.tsv) u WHERE u.lexeme = ANY(${term}.lexemes)), 0)::int
               FROM ${term} ORDER BY ${term}.n) AS in_text,
       ARRAY(SELECT coalesce((SELECT sum(cardinality(u.positions)) FROM unnest(${d}.title_tsv) u WHERE u.lexeme = ANY(${term}.lexemes)), 0)::int
               FROM ${term} ORDER BY ${term}.n) AS in_title,
       (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(${d}.tsv) u)::int AS length`;

/**
 * The share of all search documents holding each term of `terms` (text[]),
 * aligned with them, from the planner's statistics on `tsv` (the ~1,000
 * most common lexemes and their frequencies, which ANALYZE and autovacuum
 * keep): no scan, one catalog row. A term not among them is rarer than the
 * least of them and gets half its frequency, as the planner estimates it.
 * An alias group's share is its lexemes' summed (at most 1: a record
 * rarely holds two spellings). Null while the table has no statistics yet
 * (never analyzed).
 */
export const termSharesSql = (terms: string) => `(
  SELECT ARRAY(SELECT least(1, (SELECT sum(coalesce(s.freqs[array_position(s.elems, lexeme)], s.freqs[cardinality(s.elems) + 1] / 2))
                                   FROM unnest(l.lexemes) AS lexeme))
                 FROM (${termLexemesSql(terms)}) l ORDER BY l.n)
    FROM (SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
            FROM pg_stats
           WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'tsv'
             AND most_common_elems IS NOT NULL
          -- OFFSET 0 keeps the subquery from being pulled up: inlined, its cast of the ~1,000 lexemes to text[]
          -- ran again at every reference of s.elems (per term, twice), 1.3 ms instead of 0.3 ms for four terms.
          OFFSET 0) s)`;

/** Shares as `termSharesSql` answers them, checked: null unless every one is a frequency. */
export function termSharesOf(shares: unknown[] | null): number[] | null {
  const parsed = shares?.map(Number);
  return parsed && parsed.length > 0 && parsed.every((share) => share > 0 && share <= 1) ? parsed : null;
}
