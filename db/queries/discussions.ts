/** SQL for discussions and their replies. */
import type { Queryable } from '../pool.ts';

export interface DiscussionRow {
  id: string;
  author_id: string;
  title: string;
  body: string;
  product: string | null;
  status: 'open' | 'archived';
  reply_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface ReplyRow {
  id: string;
  discussion_id: string;
  author_id: string;
  /** The author's handle, for pages (null without one). */
  author_handle: string | null;
  body: string;
  in_reply_to: string | null;
  created_at: Date;
}

export async function insertDiscussion(
  db: Queryable,
  d: { id: string; authorId: string; title: string; body: string; product: string | null; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO discussions (id, author_id, title, body, product, created_at, updated_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, $6::timestamptz)`,
    [d.id, d.authorId, d.title, d.body, d.product, d.at],
  );
}

export async function findDiscussion(db: Queryable, id: string, forUpdate = false): Promise<DiscussionRow | null> {
  const r = await db.query(
    `SELECT id, author_id, title, body, product, status, reply_count, created_at, updated_at
       FROM discussions WHERE id = $1::text ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}

export async function insertReply(
  db: Queryable,
  r: { id: string; discussionId: string; authorId: string; body: string; inReplyTo: string | null; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO replies (id, discussion_id, author_id, body, in_reply_to, created_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz)`,
    [r.id, r.discussionId, r.authorId, r.body, r.inReplyTo, r.at],
  );
}

export async function countReply(db: Queryable, discussionId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE discussions SET reply_count = reply_count + 1, updated_at = $2::timestamptz WHERE id = $1::text`,
    [discussionId, at],
  );
}

export async function findReply(db: Queryable, id: string): Promise<ReplyRow | null> {
  const r = await db.query(
    `SELECT id, discussion_id, author_id, body, in_reply_to, created_at FROM replies WHERE id = $1::text`,
    [id],
  );
  return r.rows[0] ?? null;
}

/** One page of a discussion's replies, oldest first, plus one row for `has_more`. */
export async function listReplies(
  db: Queryable,
  discussionId: string,
  offset: number,
  limit: number,
): Promise<ReplyRow[]> {
  const r = await db.query(
    `SELECT x.id, x.discussion_id, x.author_id, i.handle AS author_handle, x.body, x.in_reply_to, x.created_at
       FROM replies x LEFT JOIN identities i ON i.id = x.author_id
      WHERE x.discussion_id = $1::text ORDER BY x.id OFFSET $2::int LIMIT $3::int`,
    [discussionId, offset, limit + 1],
  );
  return r.rows;
}

/** Where a reply is: its discussion, its place in listReplies' order there, who wrote it and when. */
export interface ReplyPlace {
  id: string;
  discussion_id: string;
  /** How many replies of its discussion come before it (so which page holds it). */
  before: number;
  author_id: string;
  author_handle: string | null;
  created_at: Date;
}

/**
 * The place of each of these replies, whatever their discussions; an id
 * that is no reply is absent. Each count is one range of the
 * (discussion_id, id) index.
 */
export async function locateReplies(db: Queryable, replyIds: string[]): Promise<Map<string, ReplyPlace>> {
  if (replyIds.length === 0) return new Map();
  const r = await db.query<ReplyPlace>(
    `SELECT t.id, t.discussion_id, t.author_id, i.handle AS author_handle, t.created_at,
            (SELECT count(*)::int FROM replies y WHERE y.discussion_id = t.discussion_id AND y.id < t.id) AS before
       FROM replies t LEFT JOIN identities i ON i.id = t.author_id
      WHERE t.id = ANY($1::text[])`,
    [replyIds],
  );
  return new Map(r.rows.map((row) => [row.id, row]));
}

export async function listAllDiscussionIds(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>('SELECT id FROM discussions ORDER BY id');
  return r.rows.map((row) => row.id);
}
