/**
 * Substring search reads the `bigrams` index (db/migrations/000011.sql) for
 * the query's pairs of whole words: every record containing the query must
 * hold all of them, or a substring match would be missed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import { MAX_PAIR_CHARS, wholeWordPairs } from '../../database-search/substring-query.ts';
import { createPool } from '../../db/pool.ts';
import { cloneDatabase } from '../helpers/database.ts';

describe('wholeWordPairs', () => {
  it('leaves out the first and last runs, which may be cut short', () => {
    expect(wholeWordPairs('connect econnrefused <ip>:<n>')).toEqual(['econnrefused ip', 'ip n']);
    expect(wholeWordPairs('connect econnrefused <ip>:5432')).toEqual(['econnrefused ip']);
    expect(wholeWordPairs('error failed after upgrade')).toEqual(['failed after']);
    expect(wholeWordPairs('docker timeout')).toEqual([]);
    expect(wholeWordPairs('econnref')).toEqual([]);
  });

  it('takes runs at the ends when a separator closes them', () => {
    expect(wholeWordPairs(' a b ')).toEqual(['a b']);
    expect(wholeWordPairs('error: failed to solve:')).toEqual(['failed to', 'to solve']);
  });

  it('keeps the four longest pairs, and none longer than stored', () => {
    expect(wholeWordPairs('x aa bb cc dd ee ff y')).toEqual(['aa bb', 'bb cc', 'cc dd', 'dd ee']);
    const long = 'y'.repeat(MAX_PAIR_CHARS);
    expect(wholeWordPairs(`x ${long} z w `)).toEqual(['z w']);
  });
});

describe('the stored bigrams', () => {
  let database: Awaited<ReturnType<typeof cloneDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await cloneDatabase(inject('templateDatabase'));
    pool = createPool(database.url, 2);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const PIECES = ['Error:', 'connect', 'ECONNREFUSED', '127.0.0.1:5432', ' ', '  ', '\n', '-', '_', '.', '/', '(', ')', 'é', 'naïve',
    'x', 'ab', 'a1b2', 'Words Here', 'pid 42', '%', '😀', 'y'.repeat(60), 'at /home/a/b.js:12:3', 'npm ERR! code E404'];

  it('hold every whole-word pair of every substring of a record', async () => {
    let state = 11;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = Array.from({ length: 200 }, () =>
      normalizeLiteral(Array.from({ length: 4 + Math.floor(next() * 20) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(' ')));
    const { rows } = await pool.query<{ bigrams: string[] }>(
      'SELECT ak_search_bigrams(t) AS bigrams FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n', [texts]);
    let checked = 0;
    texts.forEach((text, i) => {
      const stored = new Set(rows[i]!.bigrams);
      for (let k = 0; k < 20; k++) {
        const start = Math.floor(next() * text.length);
        const end = start + Math.floor(next() * (text.length - start + 1));
        const pairs = wholeWordPairs(text.slice(start, end));
        checked += pairs.length;
        for (const pair of pairs) expect(stored, `${JSON.stringify(text.slice(start, end))} in ${JSON.stringify(text)}`).toContain(pair);
      }
    });
    expect(checked).toBeGreaterThan(500);
  });
});
