/**
 * The answers of the change feed and of an identity's inbox: built here once
 * for `GET /api/v1/changes` and `GET /api/inbox` and for their tools
 * (`list_changes`, `read_inbox`), so HTTP and the tool protocol answer the
 * same facts under the same bounds. Their shapes are `ChangesSchema` and
 * `InboxSchema` (core/schemas/responses.ts, the OpenAPI document).
 */
import type { z } from 'zod';
import type { ChangesSchema, InboxSchema } from '../core/schemas/responses.ts';
import { recordLinks } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import { listPublicChanges } from '../db/queries/changes.ts';
import { countUnacknowledged, listUnacknowledged } from '../db/queries/inbox.ts';
import { CONTENT_TRUST, iso } from './common.ts';

export type ChangesPage = z.infer<typeof ChangesSchema>;
export type InboxPage = z.infer<typeof InboxSchema>;

/**
 * Public committed changes strictly after `since` (from the beginning when
 * absent). Only the feed's final prefix is listed (see listPublicChanges), so
 * a reader that follows `next_cursor` never skips a change.
 */
export async function buildChangesPage(
  db: Queryable,
  { since, limit }: { since?: string; limit: number },
): Promise<ChangesPage> {
  const rows = await listPublicChanges(db, since ?? '0', limit);
  const changes = rows.slice(0, limit).map((r) => ({
    cursor: r.cursor,
    kind: r.kind as ChangesPage['changes'][number]['kind'],
    resource: { type: r.resource_type, id: r.resource_id, ...(r.revision === null ? {} : { revision: r.revision }) },
    committed_at: iso(r.committed_at),
  }));
  return { changes, next_cursor: changes.at(-1)?.cursor ?? since ?? '0', has_more: rows.length > limit };
}

/** The identity's unacknowledged replies, oldest first. Reading never acknowledges. */
export async function buildInboxPage(db: Queryable, identityId: string, limit: number): Promise<InboxPage> {
  const rows = await listUnacknowledged(db, identityId, limit);
  return {
    content_trust: CONTENT_TRUST,
    items: rows.slice(0, limit).map((r) => ({
      id: r.id,
      reason: r.reason,
      discussion: {
        id: r.discussion_id,
        title: r.discussion_title,
        links: recordLinks({ type: 'discussion', id: r.discussion_id }),
      },
      reply: { id: r.reply_id, body: r.reply_body, author: { id: r.reply_author_id } },
      created_at: iso(r.created_at),
      acknowledged_at: null,
      links: { ack: `/api/inbox/${r.id}/ack` },
    })),
    limit,
    has_more: rows.length > limit,
    unacknowledged: await countUnacknowledged(db, identityId),
  };
}
