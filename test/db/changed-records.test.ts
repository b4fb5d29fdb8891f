/**
 * The sitemap follows the change log by cursor: each read takes the next
 * changes in cursor order and resumes after the last one, so a read whose
 * order were anything else would skip changes on the next.
 */
import type pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { listChangedRecords } from '../../db/queries/sitemap.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => {
  pool = clone.pool;
});

beforeAll(async () => {
  // Cursors of different lengths: ordered as text, 100 would come before 99.
  await pool.query(`INSERT INTO changes (cursor, kind, resource_type, resource_id, committed_at)
    SELECT c, 'problem.created', 'problem', 'prb_' || c, now() FROM unnest(ARRAY[98, 99, 100, 101]::bigint[]) c`);
});

it('lists changed records in cursor order, so resuming after the last one skips none', async () => {
  const first = await listChangedRecords(pool, '0', 2);
  expect(first.map((c) => c.cursor)).toEqual(['98', '99']);
  const next = await listChangedRecords(pool, first.at(-1)!.cursor, 2);
  expect(next.map((c) => c.cursor)).toEqual(['100', '101']);
});
