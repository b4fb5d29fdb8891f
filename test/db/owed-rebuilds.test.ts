/**
 * A full rebuild clears only the rebuilds owed before it started, and a
 * note is ordered against that start by the lock, not by clocks: a rebuild
 * starts only once every transaction that is noting has committed, so it
 * reads what they changed.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createPool, withTransaction } from '../../db/pool.ts';
import { clearOwedRebuilds, noteRebuildOwed, owedRebuilds, rebuildStart } from '../../db/queries/owed-rebuilds.ts';
import { cloneDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('owed rebuilds', () => {
  it('start a rebuild only after a noting transaction commits, which that rebuild then pays', async () => {
    const noting = await pool.connect();
    try {
      await noting.query('BEGIN');
      await noteRebuildOwed(noting, 'stored text redacted');
      let started = false;
      const start = rebuildStart(pool).then((at) => {
        started = true;
        return at;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(started).toBe(false);
      await noting.query('COMMIT');
      const at = await start;
      await clearOwedRebuilds(pool, at);
      expect(await owedRebuilds(pool)).toEqual([]);
    } finally {
      noting.release();
    }
  });

  it('keep what was noted after the rebuild started', async () => {
    const at = await rebuildStart(pool);
    await withTransaction(pool, (tx) => noteRebuildOwed(tx, 'stored text redacted'));
    await clearOwedRebuilds(pool, at);
    expect((await owedRebuilds(pool)).map((o) => o.reason)).toEqual(['stored text redacted']);
  });
});
