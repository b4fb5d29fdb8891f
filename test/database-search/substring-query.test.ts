/**
 * Substring search reads the `pair_keys` index (db/migrations/000012.sql)
 * for the query's pair keys: every record containing the query must hold
 * all of them, or a substring match would be missed.
 */
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import { pairKeys } from '../../database-search/substring-query.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

describe('pairKeys', () => {
  it('keys adjacent words by the last three characters of one and the first three of the next', () => {
    expect(pairKeys('docker timeout')).toEqual(['ker tim']);
    expect(pairKeys('docker timeout restart')).toEqual(['out res', 'ker tim']);
    expect(pairKeys('failed to solve:')).toEqual(['led to', 'to sol']);
  });

  it('uses a run at either end only when three characters or a separator fix its side of the key', () => {
    // `ab` may end a longer word (`xab`), whose last three characters are unknown.
    expect(pairKeys('ab timeout')).toEqual([]);
    expect(pairKeys(' ab timeout')).toEqual(['ab tim']);
    expect(pairKeys('docker to')).toEqual([]);
    expect(pairKeys('docker to ')).toEqual(['ker to']);
    expect(pairKeys('econnref')).toEqual([]);
  });

  it('orders the keys by the length of their pair of words, and keeps at most sixteen', () => {
    expect(pairKeys('connect econnrefused <ip>:<n>')).toEqual(['ect eco', 'sed ip', 'ip n']);
    expect(pairKeys('aaa bbbb ccccc dddddd eeeeeee fff')).toEqual([
      'ddd eee',
      'ccc ddd',
      'eee fff',
      'bbb ccc',
      'aaa bbb',
    ]);
    const words = Array.from({ length: 20 }, (_, i) => `w${String(i).padStart(2, '0')}x`).join(' ');
    expect(pairKeys(words)).toHaveLength(16);
  });
});

describe('the stored pair keys', () => {
  let pool: pg.Pool;
  useDatabaseClone(2, (clone) => (pool = clone.pool));

  const PIECES = [
    'Error:',
    'connect',
    'ECONNREFUSED',
    '127.0.0.1:5432',
    ' ',
    '  ',
    '\n',
    '-',
    '_',
    '.',
    '/',
    '(',
    ')',
    'é',
    'naïve',
    'x',
    'ab',
    'a1b2',
    'Words Here',
    'pid 42',
    '%',
    '😀',
    'y'.repeat(60),
    'at /home/a/b.js:12:3',
    'npm ERR! code E404',
  ];

  it('hold every key of every substring of a record', async () => {
    let state = 11;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = Array.from({ length: 200 }, () =>
      normalizeLiteral(
        Array.from({ length: 4 + Math.floor(next() * 20) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(' '),
      ),
    );
    const { rows } = await pool.query<{ keys: string[] }>(
      'SELECT ak_search_pair_keys(t) AS keys FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n',
      [texts],
    );
    let checked = 0;
    texts.forEach((text, i) => {
      const stored = new Set(rows[i]!.keys);
      for (let k = 0; k < 20; k++) {
        const start = Math.floor(next() * text.length);
        const end = start + Math.floor(next() * (text.length - start + 1));
        const pairs = pairKeys(text.slice(start, end));
        checked += pairs.length;
        for (const pair of pairs)
          expect(stored, `${JSON.stringify(text.slice(start, end))} in ${JSON.stringify(text)}`).toContain(pair);
      }
    });
    expect(checked).toBeGreaterThan(500);
  });
});
