/**
 * One renderer at a time per record, across processes: session advisory
 * locks taken before the records' state is read, so whoever renders second
 * reads the newer committed state and no stale file wins. A batch takes its
 * records' locks in id order, as every renderer does, so two batches never
 * wait on each other in a cycle. No transaction is held while rendering (the
 * embedded PGlite serialises connections inside one).
 */
import type pg from 'pg';
import { withClient } from './pool.ts';

export async function withRecordLocks<T>(pool: pg.Pool, ids: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(ids)].sort();
  return withClient(pool, async (client, markBroken) => {
    await client.query(
      'SELECT pg_advisory_lock(hashtextextended(id, 0)) FROM unnest($1::text[]) WITH ORDINALITY AS t(id, n) ORDER BY n',
      [sorted],
    );
    try {
      return await fn();
    } finally {
      // If the unlock cannot be sent the session is gone, and its locks with it.
      await client
        .query('SELECT pg_advisory_unlock(hashtextextended(id, 0)) FROM unnest($1::text[]) AS t(id)', [sorted])
        .catch(markBroken);
    }
  });
}

export function withRecordLock<T>(pool: pg.Pool, id: string, fn: () => Promise<T>): Promise<T> {
  return withRecordLocks(pool, [id], fn);
}
