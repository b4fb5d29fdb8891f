/** SQL of the full rebuilds the projections owe (db/migrations/000045.sql). */
import type { Queryable } from '../pool.ts';

/** Notes, in the caller's transaction, that a full rebuild must start after it for `reason`. */
export async function noteRebuildOwed(tx: Queryable, reason: string): Promise<void> {
  await tx.query(
    `INSERT INTO owed_rebuilds (reason, since) VALUES ($1::text, clock_timestamp())
     ON CONFLICT (reason) DO UPDATE SET since = greatest(owed_rebuilds.since, EXCLUDED.since)`,
    [reason],
  );
}

/** The reasons a full rebuild is owed, oldest first. */
export async function owedRebuilds(db: Queryable): Promise<{ reason: string; since: Date }[]> {
  return (await db.query<{ reason: string; since: Date }>('SELECT reason, since FROM owed_rebuilds ORDER BY since'))
    .rows;
}

/** The database's clock, as a full rebuild notes its start by it. */
export async function databaseNow(db: Queryable): Promise<Date> {
  return (await db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
}

/** Clears what a full rebuild that started at `startedAt` (databaseNow) has paid. */
export async function clearOwedRebuilds(db: Queryable, startedAt: Date): Promise<void> {
  await db.query('DELETE FROM owed_rebuilds WHERE since < $1::timestamptz', [startedAt]);
}
