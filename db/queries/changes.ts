/** SQL for the ordered change log. */
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';

export interface NewChange {
  kind: string;
  resourceType: string;
  resourceId: string;
  revision: number | null;
  affects: RecordRef[];
  public?: boolean;
  at: Date;
}

/**
 * Appends a change. Its cursor comes from the transaction's id
 * (`ak_next_change_cursor()`, migration 000006), so concurrent commits take
 * no lock here; the feed lists only cursors no running transaction can still
 * take (`listPublicChanges`), so a reader never skips one.
 */
export async function appendChange(db: Queryable, change: NewChange): Promise<string> {
  const r = await db.query<{ cursor: string }>(`${INSERT_CHANGE} RETURNING cursor`, changeParams(change));
  return r.rows[0]!.cursor;
}

/** The INSERT of one change, its values $1–$7 (`changeParams`); shared with statements that append a change and do more. */
export const INSERT_CHANGE = `INSERT INTO changes (kind, resource_type, resource_id, revision, affects, public, committed_at)
     VALUES ($1::text, $2::text, $3::text, $4::int, $5::jsonb, $6::boolean, $7::timestamptz)`;

export function changeParams(change: NewChange): unknown[] {
  return [
    change.kind,
    change.resourceType,
    change.resourceId,
    change.revision,
    JSON.stringify(change.affects),
    change.public ?? true,
    change.at,
  ];
}

export interface PendingChange {
  cursor: string;
  affects: RecordRef[];
  committed_at: Date;
}

/** The newest cursor committed so far, or null for an empty log: where a render pass stops. */
export async function latestChangeCursor(db: Queryable): Promise<string | null> {
  const r = await db.query<{ cursor: string | null }>('SELECT max(cursor)::text AS cursor FROM changes');
  return r.rows[0]?.cursor ?? null;
}

/**
 * Leases up to `limit` unrendered changes at or before cursor `upTo` for
 * `leaseSeconds`; other renderers skip them until the lease lapses (so a
 * renderer that died loses nothing).
 */
export async function leaseUnrenderedChanges(
  db: Queryable,
  limit: number,
  leaseSeconds: number,
  upTo: string,
): Promise<PendingChange[]> {
  const r = await db.query(
    `UPDATE changes SET render_lease_until = now() + make_interval(secs => $2::int)
      WHERE cursor IN (
        SELECT cursor FROM changes
         WHERE rendered_at IS NULL AND cursor <= $3::bigint
           AND (render_lease_until IS NULL OR render_lease_until < now())
         ORDER BY cursor LIMIT $1::int FOR UPDATE SKIP LOCKED)
      RETURNING cursor, affects, committed_at`,
    [limit, leaseSeconds, upTo],
  );
  return r.rows.sort((a, b) => (BigInt(a.cursor) < BigInt(b.cursor) ? -1 : 1));
}

/** Gives leased changes back at once (a pass that failed), rather than at lease expiry. */
export async function releaseChangeLeases(db: Queryable, cursors: string[]): Promise<void> {
  await db.query(
    'UPDATE changes SET render_lease_until = NULL WHERE cursor = ANY($1::bigint[]) AND rendered_at IS NULL',
    [cursors],
  );
}

export async function markChangesRendered(db: Queryable, cursors: string[]): Promise<void> {
  await db.query('UPDATE changes SET rendered_at = now() WHERE cursor = ANY($1::bigint[])', [cursors]);
}

export async function countUnrenderedChanges(db: Queryable): Promise<number> {
  const r = await db.query<{ n: string }>('SELECT count(*) AS n FROM changes WHERE rendered_at IS NULL');
  return Number(r.rows[0]!.n);
}

export interface FeedChange {
  cursor: string;
  kind: string;
  resource_type: string;
  resource_id: string;
  revision: number | null;
  committed_at: Date;
}

/**
 * Public changes after `since`, in cursor order, plus one row for `has_more`.
 * Only cursors below the horizon (those of transactions that ended before
 * this statement's snapshot) are listed: a transaction still running holds a
 * cursor at or above it, so what is listed is final and `next_cursor` never
 * passes a change that commits later.
 */
export async function listPublicChanges(db: Queryable, since: string, limit: number): Promise<FeedChange[]> {
  const r = await db.query(
    `SELECT cursor, kind, resource_type, resource_id, revision, committed_at FROM changes
      WHERE cursor > $1::bigint AND cursor < ak_change_feed_horizon() AND public ORDER BY cursor LIMIT $2::int`,
    [since, limit + 1],
  );
  return r.rows;
}

export interface RenderState {
  last_committed: string;
  last_rendered: string;
  unrendered: number;
  oldest_unrendered_seconds: number;
}

/** Where rendering stands against committing, for status and metrics. */
export async function readRenderState(db: Queryable): Promise<RenderState> {
  const r = await db.query(
    `SELECT coalesce(max(cursor), 0)::text AS last_committed,
            coalesce(max(cursor) FILTER (WHERE rendered_at IS NOT NULL), 0)::text AS last_rendered,
            count(*) FILTER (WHERE rendered_at IS NULL)::int AS unrendered,
            coalesce(extract(epoch FROM now() - min(committed_at) FILTER (WHERE rendered_at IS NULL)), 0)::float8
              AS oldest_unrendered_seconds
       FROM changes`,
  );
  return r.rows[0];
}
