/**
 * The stored side normalizes in SQL, the query side in TypeScript: the two
 * must agree exactly, or a variant that should match exactly would not.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { exactKeys, keyHash, normalizeLiteral } from '../../database-search/normalize.ts';
import { NORMALIZE_RULES } from '../../database-search/normalize-rules.ts';
import { normalizeFunctionSql } from '../../database-search/normalize-sql.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';
import { EVAL_CASES, EVAL_DISTRACTORS } from './eval-cases.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => (pool = clone.pool));

/** Pieces that exercise every rule, joined at random (a fixed seed, so failures repeat). */
const PIECES = [
  '/home/a/b.js',
  ':12',
  ':3:4',
  '127.0.0.1',
  '::1',
  '[::1]',
  'localhost',
  'v1.2.3',
  '1.0.0-beta.2',
  '0xdeadbeef',
  'a1b2c3d4e5',
  'ABC',
  'Error:',
  'C:\\Users\\x\\y.txt',
  'c:/a/b',
  'C:\\Program Files (x86)\\n',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  "'",
  '"',
  '`',
  '‘',
  '’',
  'line 12',
  'port=80',
  'pid 42',
  '2024-01-01T00:00:00Z',
  '12:34:56',
  '550e8400-e29b-41d4-a716-446655440000',
  'é',
  '😀',
  '\u00a0',
  '<',
  '>',
  '<path>',
  'https://x.io/a?b=1',
  '~/.npmrc',
  './src/a.ts',
  '../x',
  'src/main.rs:4:5',
  'App.java:14',
  '123456',
  '42',
  '5ms',
  '1.5s',
  '512MB',
  'at ',
  'npm ERR! ',
  'traceback (most recent call last):',
  'goroutine 7 [running]:',
  '-',
  '_',
  '.',
  '/',
  '\\',
  '(',
  ')',
  'x',
  'word',
  'Words Here',
  '%',
  '@',
  '$',
  '\u0007',
  '\u2028',
];

function fuzz(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    let text = '';
    for (let i = 0, n = 1 + Math.floor(next() * 14); i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
    return text;
  });
}

const evalTexts = [
  ...EVAL_CASES.flatMap((c) => [c.title, c.literal, c.body, c.solution, ...c.queries.map((q) => q.q)]),
  ...EVAL_DISTRACTORS.flatMap((d) => [d.title, d.literal, d.body, d.solution]),
];

async function sqlNormalize(texts: string[]): Promise<Array<{ normalized: string; keys: string[] }>> {
  const r = await pool.query<{ normalized: string; keys: string[] }>(
    `SELECT ak_search_normalize(t) AS normalized, ak_search_keys(ak_search_normalize(t)) AS keys
       FROM unnest($1::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n`,
    [texts],
  );
  return r.rows;
}

describe('ak_search_normalize', () => {
  it('is in the migration exactly as generated from the rule table', async () => {
    const migration = await readFile(new URL('../../db/migrations/000003.sql', import.meta.url), 'utf8');
    expect(migration).toContain(normalizeFunctionSql());
  });

  it('uses fewer regular expressions than PostgreSQL caches per session', () => {
    // The rules, the key-line word and boilerplate patterns, and the snippet's space pattern run for
    // every document a trigger refreshes; beyond 32 (MAX_CACHED_RES) each row recompiles them all.
    expect(NORMALIZE_RULES.length + 3).toBeLessThanOrEqual(32);
  });

  it.each([
    ['every evaluation literal, query, title and body', evalTexts],
    ['2,000 fuzzed strings', fuzz(2000)],
  ])('normalizes %s exactly as normalizeLiteral does, with the same keys', async (_name, texts) => {
    const sql = await sqlNormalize(texts);
    const disagreements = texts.flatMap((text, i) => {
      const normalized = normalizeLiteral(text);
      const keys = exactKeys(normalized).map(keyHash).sort();
      const stored = sql[i]!;
      return normalized === stored.normalized && JSON.stringify(keys) === JSON.stringify([...stored.keys].sort())
        ? []
        : [{ text, ts: normalized, sql: stored.normalized }];
    });
    expect(disagreements).toEqual([]);
    expect(texts.length).toBeGreaterThan(200);
  });
});
