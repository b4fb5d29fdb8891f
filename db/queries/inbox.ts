/** SQL for the private reply inbox. */
import type { Queryable } from '../pool.ts';

export type InboxReason = 'reply_to_your_discussion' | 'reply_to_your_reply';

export interface InboxItemRow {
  id: string;
  reason: InboxReason;
  discussion_id: string;
  discussion_title: string;
  reply_id: string;
  reply_body: string;
  reply_author_id: string;
  created_at: Date;
  acknowledged_at: Date | null;
}

export async function insertInboxItem(
  db: Queryable,
  item: { id: string; identityId: string; replyId: string; discussionId: string; reason: InboxReason; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO inbox_items (id, identity_id, reply_id, discussion_id, reason, created_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz)
     ON CONFLICT (identity_id, reply_id) DO NOTHING`,
    [item.id, item.identityId, item.replyId, item.discussionId, item.reason, item.at],
  );
}

/** Unacknowledged items, oldest first (a queue to work through), plus one row for `has_more`. */
export async function listUnacknowledged(db: Queryable, identityId: string, limit: number): Promise<InboxItemRow[]> {
  const r = await db.query(
    `SELECT i.id, i.reason, i.discussion_id, d.title AS discussion_title, i.reply_id, r.body AS reply_body,
            r.author_id AS reply_author_id, i.created_at, i.acknowledged_at
       FROM inbox_items i JOIN replies r ON r.id = i.reply_id JOIN discussions d ON d.id = i.discussion_id
      WHERE i.identity_id = $1::text AND i.acknowledged_at IS NULL
      ORDER BY i.id LIMIT $2::int`,
    [identityId, limit + 1],
  );
  return r.rows;
}

export async function countUnacknowledged(db: Queryable, identityId: string): Promise<number> {
  const r = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM inbox_items WHERE identity_id = $1::text AND acknowledged_at IS NULL',
    [identityId],
  );
  return Number(r.rows[0]!.n);
}

/** Acknowledges the owner's item; null when the identity has no such item. */
export async function acknowledgeInboxItem(
  db: Queryable,
  identityId: string,
  id: string,
  at: Date,
): Promise<Date | null> {
  const r = await db.query<{ acknowledged_at: Date }>(
    `UPDATE inbox_items SET acknowledged_at = coalesce(acknowledged_at, $3::timestamptz)
      WHERE id = $1::text AND identity_id = $2::text RETURNING acknowledged_at`,
    [id, identityId, at],
  );
  return r.rows[0]?.acknowledged_at ?? null;
}
