/**
 * The second stage's term counts (db/queries/search-families.ts, `termCountsOf`) are counted from a
 * vector's text in TypeScript: they must equal what PostgreSQL's own `unnest(tsv)` says of the same vector,
 * for lexemes holding quotes and backslashes, lexemes stored without positions, weighted positions, and
 * alias groups (a term of two lexemes, counted together).
 */
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { termCountsOf } from '../../db/queries/search-families.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => (pool = clone.pool));

/** PostgreSQL's counts of each term's lexemes in `text` and `title`, and the text's length, from unnest. */
async function countedByPostgres(text: string, title: string, terms: string[][]) {
  const r = await pool.query(
    `WITH term AS (SELECT (SELECT array_agg(x) FROM json_array_elements_text(t) AS x) AS lexemes, n
                     FROM json_array_elements($3::json) WITH ORDINALITY AS q(t, n))
     SELECT v.tsv::text AS tsv, v.title_tsv::text AS title_tsv,
            ARRAY(SELECT coalesce((SELECT sum(cardinality(u.positions)) FROM unnest(v.tsv) u WHERE u.lexeme = ANY(term.lexemes)), 0)::int
                    FROM term ORDER BY term.n) AS in_text,
            ARRAY(SELECT coalesce((SELECT sum(cardinality(u.positions)) FROM unnest(v.title_tsv) u WHERE u.lexeme = ANY(term.lexemes)), 0)::int
                    FROM term ORDER BY term.n) AS in_title,
            (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(v.tsv) u)::int AS length
       FROM (SELECT $1::tsvector AS tsv, $2::tsvector AS title_tsv) v`,
    [text, title, JSON.stringify(terms)],
  );
  return r.rows[0] as { tsv: string; title_tsv: string; in_text: number[]; in_title: number[]; length: number };
}

describe('termCountsOf', () => {
  it('counts what unnest counts, for quoted, escaped, unpositioned and weighted lexemes', async () => {
    const text = String.raw`'a\\b':1,2 'it''s':3A 'x y' 'q''''':4,5,6B 'postgr':7,9 'postgresql':8 'pool':10`;
    const title = `'postgr':1 'pool':2,3`;
    const terms = [['a\\b'], ["it's"], ['x y'], ["q''"], ['postgr', 'postgresql'], ['pool'], ['absent']];
    const expected = await countedByPostgres(text, title, terms);
    expect(expected.in_text).toEqual([2, 1, 0, 3, 3, 1, 0]);
    expect(termCountsOf(expected.tsv, expected.title_tsv, terms)).toEqual({
      in_text: expected.in_text,
      in_title: expected.in_title,
      length: expected.length,
    });
  });

  it('counts what unnest counts in vectors the English configuration makes of real text', async () => {
    const texts = [
      `psycopg2.OperationalError: could not connect to server: Connection refused. Is the server running on host "localhost" (::1) and accepting TCP/IP connections on port 5432?`,
      `Error: EACCES: permission denied, open '/home/user/.npm/_cacache/index-v5/1f/2a' — npm's cache isn't writable; it's owned by root`,
      `C:\\Users\\runner\\AppData\\Local\\Temp\\pip-build-env-x1\\overlay\\Lib\\site-packages failed: error: Microsoft Visual C++ 14.0 is required`,
    ];
    for (const source of texts) {
      const vectors = (
        await pool.query(
          `SELECT to_tsvector('english', $1::text)::text AS tsv, to_tsvector('english', left($1::text, 40))::text AS title_tsv,
                (SELECT json_agg(json_build_array(u.lexeme)) FROM unnest(to_tsvector('english', $1::text)) u) AS terms`,
          [source],
        )
      ).rows[0] as { tsv: string; title_tsv: string; terms: string[][] };
      const terms = [...vectors.terms, ['absent'], [vectors.terms[0]![0]!, vectors.terms[1]![0]!]];
      const expected = await countedByPostgres(vectors.tsv, vectors.title_tsv, terms);
      expect(termCountsOf(vectors.tsv, vectors.title_tsv, terms)).toEqual({
        in_text: expected.in_text,
        in_title: expected.in_title,
        length: expected.length,
      });
    }
  });
});
