/** `GET /api/inbox`: the caller's unacknowledged replies. Reading never acknowledges. */
import type { Context } from 'hono';
import { InboxParamsSchema } from '../../core/schemas/read-params.ts';
import { recordLinks } from '../../core/types.ts';
import { countUnacknowledged, listUnacknowledged } from '../../db/queries/inbox.ts';
import type { AppDeps } from '../app-deps.ts';
import { authorizationOf } from '../auth.ts';
import { CACHE, sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

export function createInboxHandler({ pool, authenticate }: AppDeps) {
  return async function readInbox(c: Context): Promise<Response> {
    const credential = await authenticate(c, authorizationOf(c));
    const { limit } = parseOrThrow(InboxParamsSchema, c.req.query(), 'query');
    const rows = await listUnacknowledged(pool, credential.identity_id, limit);
    return sendJson(c, {
      content_trust: 'untrusted',
      items: rows.slice(0, limit).map((r) => ({
        id: r.id,
        reason: r.reason,
        discussion: { id: r.discussion_id, title: r.discussion_title, links: recordLinks({ type: 'discussion', id: r.discussion_id }) },
        reply: { id: r.reply_id, body: r.reply_body, author: { id: r.reply_author_id } },
        created_at: r.created_at.toISOString(),
        acknowledged_at: null,
        links: { ack: `/api/inbox/${r.id}/ack` },
      })),
      limit,
      has_more: rows.length > limit,
      unacknowledged: await countUnacknowledged(pool, credential.identity_id),
    }, CACHE.private);
  };
}
