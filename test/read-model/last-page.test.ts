/**
 * Lists are served to page 100 (docs/api.md, Limits): the last page says
 * nothing follows, so no client follows a `next` to a 400; and a listing
 * whose count stops short of the table (an empty search, newest first)
 * still says when another page follows.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { LAST_PAGE } from '../../core/schemas/read-params.ts';
import { NEWEST_COUNT_CAP } from '../../db/queries/search.ts';
import { createPool } from '../../db/pool.ts';
import { runSearch } from '../../database-search/run-search.ts';
import { buildCollectionView } from '../../read-model/collection.ts';
import { seedRecords } from '../../bench/seed/seed-records.ts';
import { cloneDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let documents: number;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
  await seedRecords(pool, { records: 1300, seed: 3 });
  documents = Number((await pool.query('SELECT count(*) AS n FROM search_documents')).rows[0].n);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('the last page', () => {
  it('of a collection with more records than it serves names no next page', async () => {
    const problems = Number((await pool.query('SELECT count(*) AS n FROM problems')).rows[0].n);
    expect(problems).toBeGreaterThan(LAST_PAGE);
    const before = await buildCollectionView(pool, 'problem', { page: LAST_PAGE - 1, limit: 1, product: undefined });
    expect(before).toMatchObject({ has_more: true, next: expect.stringContaining(`page=${LAST_PAGE}`) });
    const last = await buildCollectionView(pool, 'problem', { page: LAST_PAGE, limit: 1, product: undefined });
    expect(last.items).toHaveLength(1);
    expect(last).toMatchObject({ has_more: false, next: null });
  });

  it('of a search says nothing follows, and an empty search past its count says when a page does', async () => {
    expect(documents).toBeGreaterThan(NEWEST_COUNT_CAP + 40);
    const newest = (page: number, limit: number) =>
      runSearch(pool, { q: '', mode: 'auto', page, limit } as Parameters<typeof runSearch>[1]);
    // Past the count's cap: 980 listed before this page, 20 on it, more after.
    const past = await newest(50, 20);
    expect(past.coverage.total_exact).toBe(false);
    expect(past.items).toHaveLength(20);
    expect(past.has_more).toBe(true);
    expect((await newest(51, 20)).items).toHaveLength(20);
    // The page that holds the table's last document.
    const end = await newest(Math.ceil(documents / 20), 20);
    expect(end.items.length).toBeGreaterThan(0);
    expect(end.has_more).toBe(false);
    expect((await newest(LAST_PAGE, 1)).has_more).toBe(false);
    expect((await newest(LAST_PAGE - 1, 1)).has_more).toBe(true);
  });
});
