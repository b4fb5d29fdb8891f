/**
 * What the search statement (db/queries/search.ts) reads for the second
 * ranking stage (database-search/rerank.ts), as fragments of that one
 * statement, so a search pays no round trip for them: each page row's
 * term counts (counted here from the vectors the statement returns), and
 * the share of all documents holding each query term.
 */

/**
 * The query's terms as their lexemes with their position (`lexemes`, `n`),
 * one row per term, for `termCountsOf`; `terms` is a text[] of single-term
 * tsquery texts (`findQueryTerms`, 'postgr'), or of alias groups
 * ('postgr' | 'postgresql', database-search/term-aliases.ts), whose row
 * holds each of the group's lexemes.
 */
export const termLexemesSql = (terms: string) =>
  `SELECT array_remove(tsvector_to_array(t::tsvector), '|') AS lexemes, n FROM unnest(${terms}::text[]) WITH ORDINALITY AS q(t, n)`;

/**
 * Lexemes of a vector's text (`tsv::text`: `'lexeme':1,4A 'other'`) and how many positions each has (0 for one
 * stored without positions): what `unnest(tsv)` gives as `lexeme` and `cardinality(positions)`. Lexemes are
 * quoted, with `'` and `\` doubled.
 */
export function positionCounts(vector: string): Map<string, number> {
  const counts = new Map<string, number>();
  const QUOTE = 39,
    BACKSLASH = 92,
    COLON = 58,
    COMMA = 44,
    SPACE = 32;
  let i = vector.indexOf("'");
  while (i >= 0 && i < vector.length) {
    const start = i + 1;
    let end = start;
    let escaped = false;
    for (; end < vector.length; end += 1) {
      const ch = vector.charCodeAt(end);
      if (ch === BACKSLASH) {
        escaped = true;
        end += 1;
      } else if (ch === QUOTE) {
        if (vector.charCodeAt(end + 1) !== QUOTE) break;
        escaped = true;
        end += 1;
      }
    }
    const raw = vector.slice(start, end);
    const lexeme = escaped ? raw.replace(/\\(.)|''/gs, (_, ch: string | undefined) => ch ?? "'") : raw;
    i = end + 1;
    let positions = 0;
    if (vector.charCodeAt(i) === COLON) {
      positions = 1;
      for (i += 1; i < vector.length && vector.charCodeAt(i) !== SPACE; i += 1)
        if (vector.charCodeAt(i) === COMMA) positions += 1;
    }
    counts.set(lexeme, positions);
    i = vector.indexOf("'", i);
  }
  return counts;
}

/**
 * How often each query term occurs in a document's text and title (`tsv::text`, `title_tsv::text`),
 * aligned with the terms (`termLexemes`: each term's lexemes, from `termLexemesSql`; an alias group's
 * are counted together), and the text's length in words. Counted here from the vectors' text, not in the
 * statement: there each term and field was a pass over the vector per page row, about 1 ms of a keyword
 * search at 100k (a paired comparison over 300 symptoms).
 */
export function termCountsOf(
  tsv: string,
  titleTsv: string | null,
  termLexemes: readonly (readonly string[])[],
): { in_text: number[]; in_title: number[]; length: number } {
  const text = positionCounts(tsv);
  const title = positionCounts(titleTsv ?? '');
  const countIn = (counts: Map<string, number>) =>
    termLexemes.map((lexemes) => lexemes.reduce((sum, lexeme) => sum + (counts.get(lexeme) ?? 0), 0));
  let length = 0;
  for (const n of text.values()) length += n;
  return { in_text: countIn(text), in_title: countIn(title), length };
}

/**
 * The share of all search documents holding each term of `terms` (text[]),
 * aligned with them, from the planner's statistics on `tsv` (the ~1,000
 * most common lexemes and their frequencies, which ANALYZE and autovacuum
 * keep): no scan, one catalog row. A term not among them is rarer than the
 * least of them and gets half its frequency, as the planner estimates it.
 * An alias group's share is its lexemes' summed (at most 1: a record
 * rarely holds two spellings). Null while the table has no statistics yet
 * (never analyzed). The statistics are read when the statement is planned,
 * once per generic plan (db/migrations/000018.sql).
 */
export const termSharesSql = (terms: string) => `(
  SELECT ARRAY(SELECT least(1, (SELECT sum(coalesce(s.freqs[array_position(s.elems, lexeme)], s.freqs[cardinality(s.elems) + 1] / 2))
                                   FROM unnest(l.lexemes) AS lexeme))
                 FROM (${termLexemesSql(terms)}) l ORDER BY l.n)
    -- Constants of the plan (db/migrations/000018.sql): no row, so no shares, without statistics.
    FROM (SELECT ak_search_term_elems() AS elems, ak_search_term_freqs() AS freqs) s
   WHERE s.elems IS NOT NULL)`;

/** Shares as `termSharesSql` answers them, checked: null unless every one is a frequency. */
export function termSharesOf(shares: unknown[] | null): number[] | null {
  const parsed = shares?.map(Number);
  return parsed && parsed.length > 0 && parsed.every((share) => share > 0 && share <= 1) ? parsed : null;
}
