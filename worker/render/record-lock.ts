/**
 * One renderer at a time per record, across processes: a session advisory
 * lock taken before the record's state is read, so whoever renders second
 * reads the newer committed state and no stale file wins. No transaction is
 * held while rendering (the embedded PGlite serialises connections inside one).
 */
import type pg from 'pg';

export async function withRecordLock<T>(pool: pg.Pool, id: string, fn: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [id]);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1::text, 0))', [id]);
    }
  } finally {
    client.release();
  }
}
