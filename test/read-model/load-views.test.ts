/**
 * loadViews answers many records with a fixed number of queries, and each
 * view it builds is exactly the view the single-record builder reads live.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { RecordRef } from '../../core/types.ts';
import { createPool, type Queryable } from '../../db/pool.ts';
import { buildRecordView, loadViews } from '../../read-model/record-view.ts';
import { listAllRecords } from '../../worker/jobs/rebuild.ts';
import { seedRecords } from '../../bench/seed/seed-records.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { FIXTURE_NOW, fixtureId, fixtureRecords, insertFixtureRecords } from '../helpers/record-fixtures.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let all: RecordRef[];

/** The pool, counting the statements sent through it. */
function counting(db: Queryable): { db: Queryable; count: () => number } {
  let n = 0;
  return {
    db: {
      query: ((...args: Parameters<Queryable['query']>) => {
        n++;
        return db.query(...args);
      }) as Queryable['query'],
    },
    count: () => n,
  };
}

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
  await insertFixtureRecords(pool);
  await seedRecords(pool, { records: 300, seed: 8 });
  all = await listAllRecords(pool);
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('loadViews', () => {
  it('builds every view with the same number of queries for one record of each type as for all of them', async () => {
    const few = counting(pool);
    const oneOfEach = (['problem', 'solution', 'discussion', 'agent'] as const).map(
      (type) => fixtureRecords().find((r) => r.type === type)!,
    );
    await loadViews(few.db, oneOfEach, FIXTURE_NOW);
    const many = counting(pool);
    const views = await loadViews(many.db, all, FIXTURE_NOW);
    expect(all.length).toBeGreaterThan(300);
    expect(views.filter((v) => v !== null)).toHaveLength(all.length);
    expect(many.count()).toBe(few.count());
    expect(many.count()).toBeLessThanOrEqual(20);
  });

  it('gives each record exactly the view the live builder reads, missing records included', async () => {
    const refs: RecordRef[] = [
      ...all,
      { type: 'problem', id: fixtureId('problem', 99) },
      { type: 'agent', id: fixtureId('agent', 99) },
    ];
    const views = await loadViews(pool, refs, FIXTURE_NOW);
    for (const [i, ref] of refs.entries()) {
      expect(views[i], `${ref.type} ${ref.id}`).toEqual(await buildRecordView(pool, ref, undefined, FIXTURE_NOW));
    }
    expect(views.at(-1)).toBeNull();
    expect(views.at(-2)).toBeNull();
  });
});
