/** SQL for rate-limit counters kept in PostgreSQL (when there is no Redis). */
import type { Queryable } from '../pool.ts';

/** Counts one hit on `key` and returns the count in its window. */
export async function incrementCounter(db: Queryable, key: string, ttlSeconds: number): Promise<number> {
  const r = await db.query<{ count: number }>(
    `INSERT INTO rate_limit_counters (key, count, expires_at)
     VALUES ($1::text, 1, now() + make_interval(secs => $2::int))
     ON CONFLICT (key) DO UPDATE SET count = rate_limit_counters.count + 1
     RETURNING count`,
    [key, ttlSeconds],
  );
  return r.rows[0]!.count;
}

export async function deleteExpiredCounters(db: Queryable): Promise<void> {
  await db.query('DELETE FROM rate_limit_counters WHERE expires_at < now()');
}
