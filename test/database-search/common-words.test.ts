/**
 * A symptom in plain words made only of common terms is not looked up as a
 * substring in mode auto (db/queries/search/statement-text.ts,
 * COMMON_TERM_SHARE): its pair key or trigrams are held by a large share of
 * the corpus, every holder is read, and the few the cap keeps are the first
 * in table order. The keyword level answers it instead. A rarer word, text
 * that is not plain words, and mode substring keep the substring level.
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
let rare: string;

/** Records, each a share of 1/160 of the corpus: under COMMON_TERM_SHARE (1 %) a word of one record is rare. */
const RECORDS = 160;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 2);
  // As the API's search pool opens its sessions: prepared statements on generic plans.
  searchPool = createPool(database.url, 1, undefined, searchSessionOptions(10_000));
  const author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'common-words', display_name: null });
  for (let i = 0; i < RECORDS - 1; i++)
    await insertStoredProblem(pool, author, {
      title: `Worker ${i} stops after a deploy`,
      body: `The service restarts with exit=1 in a loop and the queue backs up (${i}).`,
      product: 'common',
      error_literal: null,
    });
  rare = await insertStoredProblem(pool, author, {
    title: 'Billing export stops overnight',
    body: 'The billing service restarts at midnight and drops the export.',
    product: 'common',
    error_literal: null,
  });
  await searchDocumentsCaughtUp(pool);
  // The shares come from the planner's statistics (db/migrations/000018.sql).
  await pool.query('ANALYZE search_documents');
});
afterAll(async () => {
  await searchPool.end();
  await pool.end();
  await database.drop();
});

async function search(q: string, mode: 'auto' | 'substring' = 'auto') {
  const client = await searchPool.connect();
  try {
    const result = await runSearch(client, SearchParamsSchema.parse({ q, mode, limit: '5' }), new Date(), {
      prepared: true,
    });
    return result.items;
  } finally {
    client.release();
  }
}

describe('plain words of common terms, mode auto', () => {
  it('are answered by the keyword level, with or without a pair key', async () => {
    for (const q of ['service', 'service restarts']) {
      const items = await search(q);
      expect(items.length, q).toBeGreaterThan(0);
      expect(new Set(items.map((item) => item.match.kind)), q).toEqual(new Set(['keywords']));
    }
  });

  it('keep the substring level in mode substring', async () => {
    const items = await search('service restarts', 'substring');
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((item) => item.match.kind))).toEqual(new Set(['substring']));
  });
});

describe('the substring level in mode auto', () => {
  it('still reads a plain-words query holding a rare term', async () => {
    const items = await search('billing service restarts');
    expect(items[0]?.id).toBe(rare);
    expect(items[0]?.match.kind).toBe('substring');
  });

  it('still reads common terms that are not plain words', async () => {
    const items = await search('service restarts with exit=1');
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.match.kind === 'substring')).toBe(true);
  });
});
