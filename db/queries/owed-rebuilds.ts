/**
 * SQL of the full rebuilds the projections owe (db/migrations/000045.sql). A note is ordered against a
 * rebuild's start by one advisory lock, not by clocks alone: a transaction that notes holds it shared
 * from its note to its commit, and a rebuild takes its start under the lock held alone. A note made
 * before that start is committed before the rebuild reads a record (so the rebuild renders what it
 * changed); a note made after carries a later time, which the rebuild does not clear.
 */
import type pg from 'pg';
import { withClient, type Queryable } from '../pool.ts';

const NOTES_LOCK = `hashtextextended('owed_rebuilds', 0)`;

/** Notes, in the caller's transaction (after its changes), that a full rebuild must start after it for `reason`. */
export async function noteRebuildOwed(tx: Queryable, reason: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock_shared(${NOTES_LOCK})`);
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

/** A full rebuild's start, taken when no noting transaction is under way (every earlier one committed). */
export function rebuildStart(pool: pg.Pool): Promise<Date> {
  return withClient(pool, async (client) => {
    await client.query(`SELECT pg_advisory_lock(${NOTES_LOCK})`);
    try {
      return (await client.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${NOTES_LOCK})`);
    }
  });
}

/** Clears what a full rebuild that started at `startedAt` (rebuildStart) has paid. */
export async function clearOwedRebuilds(db: Queryable, startedAt: Date): Promise<void> {
  await db.query('DELETE FROM owed_rebuilds WHERE since < $1::timestamptz', [startedAt]);
}
