/**
 * One renderer at a time per record, across processes: a session advisory
 * lock taken before the record's state is read, so whoever renders second
 * reads the newer committed state and no stale file wins. No transaction is
 * held while rendering (the embedded PGlite serialises connections inside one).
 */
import type pg from 'pg';
import { withClient } from '../../db/pool.ts';

export async function withRecordLock<T>(pool: pg.Pool, id: string, fn: () => Promise<T>): Promise<T> {
  return withClient(pool, async (client, markBroken) => {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [id]);
    try {
      return await fn();
    } finally {
      // If the unlock cannot be sent the session is gone, and its locks with it.
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1::text, 0))', [id]).catch(markBroken);
    }
  });
}
