/** SQL for rate-limit counters kept in PostgreSQL (when there is no Redis). */
import type { Queryable } from '../pool.ts';

/** Removes the counters of past windows; returns how many. */
export async function deleteExpiredCounters(db: Queryable): Promise<number> {
  const r = await db.query('DELETE FROM rate_limit_counters WHERE expires_at < now()');
  return r.rowCount ?? 0;
}

/** Adds each entry's hits to its counter in one statement; returns the totals in the entries' order. */
export async function addToCounters(
  db: Queryable,
  entries: { key: string; hits: number; ttlSeconds: number }[],
): Promise<number[]> {
  const r = await db.query<{ key: string; count: number }>(
    `INSERT INTO rate_limit_counters (key, count, expires_at)
     SELECT k, h, now() + make_interval(secs => t)
       FROM unnest($1::text[], $2::int[], $3::int[]) AS e(k, h, t)
     ON CONFLICT (key) DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
     RETURNING key, count`,
    [entries.map((e) => e.key), entries.map((e) => e.hits), entries.map((e) => e.ttlSeconds)],
  );
  const totals = new Map(r.rows.map((row) => [row.key, row.count]));
  return entries.map((e) => totals.get(e.key) ?? e.hits);
}
