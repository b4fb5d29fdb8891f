/**
 * `GET /api/inbox`: the caller's unacknowledged replies, built by the read
 * model (read-model/feeds.ts) as the `read_inbox` tool answers it. Reading
 * never acknowledges.
 */
import type { Context } from 'hono';
import { InboxParamsSchema } from '../../core/schemas/read-params.ts';
import { buildInboxPage } from '../../read-model/feeds.ts';
import type { AppDeps } from '../app-deps.ts';
import { authorizationOf } from '../auth.ts';
import { CACHE, sendJson } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

export function createInboxHandler({ pool, authenticate }: AppDeps) {
  return async function readInbox(c: Context): Promise<Response> {
    const credential = await authenticate(c, authorizationOf(c));
    const { limit } = parseOrThrow(InboxParamsSchema, c.req.query(), 'query');
    return sendJson(c, await buildInboxPage(pool, credential.identity_id, limit), CACHE.private);
  };
}
