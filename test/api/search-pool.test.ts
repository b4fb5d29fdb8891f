/**
 * The API's search pool (api/routes/search.ts, `createSearchPool`): its
 * sessions carry the search settings from the start, so a search runs
 * there with no transaction around it. What a user relies on: every search
 * still reads through indexes within the time limit, and answers exactly as
 * the transaction path does (the embedded database's, and the one before).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { createSearchPool, searchWithinLimit } from '../../api/routes/search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { createPool } from '../../db/pool.ts';
import { evaluationQueries, seedEvaluation } from '../../bench/lib/search-evaluation.ts';
import { cloneDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let searchPool: pg.Pool;
const config = { RETRY_AFTER_SECONDS: 1, EMBEDDED_DATABASE: false };

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 2);
  searchPool = createSearchPool(database.url);
  await seedEvaluation(pool, 0);
}, 300_000);
afterAll(async () => {
  await searchPool.end();
  await pool.end();
  await database.drop();
});

const settings = async (db: pg.Pool) =>
  (
    await db.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('enable_seqscan', 'plan_cache_mode', 'jit', 'statement_timeout') ORDER BY name`,
    )
  ).rows;

describe('the search pool', () => {
  it('opens every session with sequential scans off, generic plans, no JIT and the 3 s statement limit', async () => {
    const clients = await Promise.all([searchPool.connect(), searchPool.connect()]);
    try {
      for (const client of clients) {
        const rows = (
          await client.query<{ name: string; setting: string }>(
            `SELECT name, setting FROM pg_settings WHERE name IN ('enable_seqscan', 'plan_cache_mode', 'jit', 'statement_timeout') ORDER BY name`,
          )
        ).rows;
        expect(rows).toEqual([
          { name: 'enable_seqscan', setting: 'off' },
          { name: 'jit', setting: 'off' },
          { name: 'plan_cache_mode', setting: 'force_generic_plan' },
          { name: 'statement_timeout', setting: '3000' },
        ]);
      }
    } finally {
      for (const c of clients) c.release();
    }
  });

  it('leaves the service pool as it was', async () => {
    expect(await settings(pool)).toContainEqual({ name: 'enable_seqscan', setting: 'on' });
  });

  it('answers every mode exactly as a search transaction does', async () => {
    const queries = evaluationQueries().filter((_, i) => i % 50 === 0);
    expect(queries.length).toBeGreaterThan(10);
    const modes = ['auto', 'exact', 'substring', 'keywords'] as const;
    let found = 0;
    for (const q of [...queries.map((item) => item.q), '']) {
      for (const mode of modes) {
        const params = SearchParamsSchema.parse({ q, mode, limit: '7' });
        const viaPool = await searchWithinLimit({ pool, searchPool, config }, params);
        const viaTransaction = await searchWithinLimit({ pool, config }, params);
        expect(viaPool, `${mode}: ${q}`).toEqual(viaTransaction);
        found += viaPool.items.length;
      }
    }
    expect(found).toBeGreaterThan(0);
  }, 300_000);
});
