/**
 * The pages of one search are cuts of one order. The second stage
 * (rerank.ts) reorders the first-stage rows it is given; it was given the
 * page and 20 rows below it, a window that grew with the page, so a record
 * from below page 1's window could open page 2 and push page 1's last item
 * onto page 2 again, never to be shown itself. It now reorders the same
 * rows for every page. And the record whose literal is the whole query comes
 * first before the page is cut, not only when the reordered rows hold it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { createPool } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { searchSessionOptions } from '../../db/queries/search.ts';
import { runSearch } from '../../database-search/run-search.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let searchPool: pg.Pool;
let literalRecord: string;
const LINE = 'Error: connect ECONNREFUSED 127.0.0.1:6379';

const WORDS = ['redis', 'connection', 'refused', 'timeout', 'cluster', 'sentinel', 'failover', 'replica'];

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 2);
  searchPool = createPool(database.url, 1, undefined, searchSessionOptions(10_000));
  const author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'paging', display_name: null });
  // 60 records holding different shares of the query's words, in titles and bodies of different lengths,
  // so the second stage's weights reorder what the first stage found.
  for (let i = 0; i < 60; i++) {
    const held = WORDS.filter((_, w) => (i * 7 + w * 3) % 5 < 2 + (i % 3));
    const filler = ' The worker logs it and carries on.'.repeat(1 + ((i * 11) % 9));
    await insertStoredProblem(pool, author, {
      title: `${held.slice(0, 1 + (i % 2)).join(' ')} problem ${i}`,
      body: `${held.join(' ')} seen on host ${i}.${filler}`,
      product: i % 4 === 0 ? 'redis' : 'ioredis',
      error_literal: null,
    });
  }
  // The reviewer's case: a record whose whole literal is the query, older than 30 records holding it as one line.
  literalRecord = await insertStoredProblem(pool, author, {
    title: 'Redis refuses connections on startup',
    body: 'The client starts before the server.',
    product: 'ioredis',
    error_literal: LINE,
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (let i = 0; i < 30; i++)
    await insertStoredProblem(pool, author, {
      title: `Queue worker ${i} cannot reach its store`,
      body: `Seen on host ${i}.`,
      product: 'ioredis',
      error_literal: `[ioredis] Unhandled error event:\n${LINE}\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:${1600 + i}:16)`,
    });
  await searchDocumentsCaughtUp(pool);
  await pool.query('ANALYZE search_documents');
});
afterAll(async () => {
  await searchPool.end();
  await pool.end();
  await database.drop();
});

async function page(q: string, n: number, limit: number, mode = 'keywords'): Promise<string[]> {
  const client = await searchPool.connect();
  try {
    const params = SearchParamsSchema.parse({ q, mode, page: String(n), limit: String(limit) });
    return (await runSearch(client, params, new Date(), { prepared: true })).items.map((item) => item.id);
  } finally {
    client.release();
  }
}

describe('the pages of one search', () => {
  it.each(['redis connection refused timeout', 'sentinel failover replica cluster redis', 'redis cluster timeout'])(
    'repeat nothing, lose nothing, and cut one order whatever the page size: %s',
    async (q) => {
      const byFives: string[] = [];
      for (let n = 1; n <= 8; n++) byFives.push(...(await page(q, n, 5)));
      const byTwenties = [...(await page(q, 1, 20)), ...(await page(q, 2, 20))];
      expect(byFives.length).toBeGreaterThan(25);
      expect(new Set(byFives).size).toBe(byFives.length);
      expect(byFives).toEqual(byTwenties);
      // The default page is the first cut of the same order.
      expect(await page(q, 1, 7)).toEqual(byFives.slice(0, 7));
    },
  );

  it('of a pasted line many records hold show each record once, the one whose whole literal it is included', async () => {
    const pages: string[] = [];
    for (let n = 1; n <= 6; n++) pages.push(...(await page(LINE, n, 7, 'auto')));
    expect(new Set(pages).size).toBe(pages.length);
    // Whole literal first (docs/search.md), though 30 newer records hold the line as well.
    expect(pages[0]).toBe(literalRecord);
  });
});
