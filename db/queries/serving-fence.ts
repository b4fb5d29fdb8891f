/**
 * SQL for the serving fence (migration 000008; the rules are in
 * core/serving-fence.ts) and for whether the database takes writes at all.
 */
import type { FenceCommand } from '../../core/schemas/fence.ts';
import {
  DEFAULT_FENCE_RETRY_AFTER_SECONDS,
  FENCE_MAX_AGE_MS,
  fenceStatusOf,
  type FenceChange,
  type FenceReading,
  type FenceStatus,
} from '../../core/serving-fence.ts';
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';

/**
 * The fence row and the database's own state, in one round trip.
 *
 * `default_transaction_read_only` is read from where new sessions take it:
 * the most specific ALTER DATABASE / ALTER ROLE setting, else the server's
 * configuration file. Not from this session's own value: a pooled session
 * keeps the value it started with, so it would report read-only long after
 * the database was switched back (or writable before the switch reached it).
 */
export async function readServingFence(db: Queryable): Promise<FenceReading> {
  const r = await db.query<FenceReading>(
    `WITH me AS (
       SELECT (SELECT oid FROM pg_database WHERE datname = current_database()) AS db,
              (SELECT oid FROM pg_roles WHERE rolname = current_user) AS role
     ), per_database_or_role AS (
       SELECT lower(split_part(setting, '=', 2)) AS value
         FROM pg_db_role_setting s CROSS JOIN me CROSS JOIN unnest(s.setconfig) AS setting
        WHERE split_part(setting, '=', 1) = 'default_transaction_read_only'
          AND s.setdatabase IN (0, me.db) AND s.setrole IN (0, me.role)
          AND NOT (s.setdatabase = 0 AND s.setrole = 0)
        ORDER BY (s.setdatabase <> 0 AND s.setrole <> 0) DESC, (s.setrole <> 0) DESC
        LIMIT 1
     ), server_file AS (
       SELECT setting AS value FROM pg_settings
        WHERE name = 'default_transaction_read_only' AND source IN ('configuration file', 'default')
     )
     SELECT f.fenced, f.reason, f.retry_after_seconds, f.raised_by, f.raised_at, f.lowered_by, f.lowered_at,
            pg_is_in_recovery() AS in_recovery,
            coalesce((SELECT value FROM per_database_or_role), (SELECT value FROM server_file), 'off')
              -- PostgreSQL's spellings of a true boolean setting.
              IN ('on', 'true', 'yes', '1', 't', 'tr', 'tru', 'y', 'ye') AS read_only_configured
       FROM (SELECT 1) AS one LEFT JOIN serving_fence f ON true`,
  );
  return r.rows[0]!;
}

export interface RaiseFence {
  reason: string;
  retryAfterSeconds: number;
  by: string;
}

/** Raises the fence (or replaces the reason of a raised one). */
export async function raiseServingFence(db: Queryable, fence: RaiseFence): Promise<void> {
  await db.query(
    `INSERT INTO serving_fence (id, fenced, reason, retry_after_seconds, raised_by, raised_at)
     VALUES (true, true, $1::text, $2::int, $3::text, now())
     ON CONFLICT (id) DO UPDATE SET fenced = true, reason = EXCLUDED.reason,
       retry_after_seconds = EXCLUDED.retry_after_seconds, raised_by = EXCLUDED.raised_by,
       raised_at = EXCLUDED.raised_at, lowered_by = NULL, lowered_at = NULL`,
    [fence.reason, fence.retryAfterSeconds, fence.by],
  );
}

/** Lowers the fence; true when it was raised. The last raise stays on record. */
export async function lowerServingFence(db: Queryable, by: string): Promise<boolean> {
  const r = await db.query(
    'UPDATE serving_fence SET fenced = false, lowered_by = $1::text, lowered_at = now() WHERE fenced',
    [by],
  );
  return (r.rowCount ?? 0) > 0;
}

export async function readFenceStatus(db: Queryable, retryAfterSeconds: number): Promise<FenceStatus> {
  return fenceStatusOf(await readServingFence(db), retryAfterSeconds);
}

/** Raises or lowers the fence as `by`; one implementation for the ops CLI and the operator endpoint. */
export async function applyFenceCommand(
  db: Queryable,
  command: FenceCommand,
  by: string,
  retryAfterSeconds: number,
): Promise<FenceChange> {
  if (command.state === 'on') {
    await raiseServingFence(db, {
      reason: command.reason,
      retryAfterSeconds: command.retry_after ?? DEFAULT_FENCE_RETRY_AFTER_SECONDS,
      by,
    });
  } else {
    await lowerServingFence(db, by);
  }
  return {
    status: await readFenceStatus(db, retryAfterSeconds),
    effective_by: new Date(Date.now() + FENCE_MAX_AGE_MS).toISOString(),
  };
}

/** Notes that a record's page was rendered with the fence banner (worker/render/fence-banner.ts). */
export async function noteFencedRender(db: Queryable, ref: RecordRef): Promise<void> {
  await db.query(
    `INSERT INTO fenced_renders (type, id) VALUES ($1::text, $2::text)
     ON CONFLICT (type, id) DO UPDATE SET noted_at = now()`,
    [ref.type, ref.id],
  );
}

/** Up to `limit` records whose page carries the banner, and the database time they were read at. */
export async function listFencedRenders(db: Queryable, limit: number): Promise<{ refs: RecordRef[]; readAt: Date }> {
  const r = await db.query<{ type: RecordRef['type']; id: string; read_at: Date }>(
    'SELECT type, id, now() AS read_at FROM fenced_renders ORDER BY id LIMIT $1::int',
    [limit],
  );
  return { refs: r.rows.map(({ type, id }) => ({ type, id })), readAt: r.rows[0]?.read_at ?? new Date(0) };
}

/** Forgets the notes of `refs` made at or before `readAt` (a later note means a later banner). */
export async function forgetFencedRenders(db: Queryable, refs: RecordRef[], readAt: Date): Promise<void> {
  if (refs.length === 0) return;
  await db.query(
    `DELETE FROM fenced_renders f USING unnest($1::text[], $2::text[]) AS done(type, id)
      WHERE f.type = done.type AND f.id = done.id AND f.noted_at <= $3::timestamptz`,
    [refs.map((r) => r.type), refs.map((r) => r.id), readAt],
  );
}
