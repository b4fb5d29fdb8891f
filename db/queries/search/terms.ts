/** The full-text terms of a query, as PostgreSQL's English configuration reads them. */
import { queryPrepared, type Queryable } from '../../pool.ts';

/**
 * The full-text terms of a normalized query, as single-term tsquery texts
 * ('postgr'): English stems, stop words dropped, each once, in the order
 * they first appear, at most `max`.
 */
export async function findQueryTerms(
  db: Queryable,
  words: string,
  max: number,
  options: { prepared?: boolean } = {},
): Promise<string[]> {
  const r = await queryPrepared<{ term: string }>(
    db,
    options.prepared ? 'ak_search_terms' : undefined,
    `SELECT term FROM unnest(string_to_array(plainto_tsquery('english'::regconfig, $1::text)::text, ' & '))
              WITH ORDINALITY AS t(term, n)
      WHERE term <> '' GROUP BY term ORDER BY min(n) LIMIT $2::int`,
    [words, max],
  );
  return r.rows.map((row) => row.term);
}

/**
 * The full-text terms of each text of `pieces` (database-search/query-terms.ts: the pieces of a query
 * between its runs of white space), in the order `findQueryTerms` lists a whole text's, duplicates kept:
 * one array per piece, aligned with `pieces`, empty for a piece of stop words only.
 */
export async function findPieceTerms(
  db: Queryable,
  pieces: string[],
  options: { prepared?: boolean } = {},
): Promise<string[][]> {
  const r = await queryPrepared<{ query: string }>(
    db,
    options.prepared ? 'ak_search_piece_terms' : undefined,
    `SELECT plainto_tsquery('english'::regconfig, p.text)::text AS query
       FROM unnest($1::text[]) WITH ORDINALITY AS p(text, n) ORDER BY p.n`,
    [pieces],
  );
  return r.rows.map((row) => row.query.split(' & ').filter((term) => term !== ''));
}
