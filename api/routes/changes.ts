/**
 * `GET /api/v1/changes`: public committed changes after a cursor. Only the
 * final prefix of the feed is listed (see listPublicChanges), so a reader
 * that follows `next_cursor` never skips a change.
 */
import type { Context } from 'hono';
import { ChangesParamsSchema } from '../../core/schemas/read-params.ts';
import { listPublicChanges } from '../../db/queries/changes.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkCursor } from '../page-links.ts';
import { sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

export function createChangesHandler({ pool }: AppDeps) {
  return async function listChanges(c: Context): Promise<Response> {
    const { since, limit } = parseOrThrow(ChangesParamsSchema, c.req.query(), 'query');
    const rows = await listPublicChanges(pool, since ?? '0', limit);
    const changes = rows.slice(0, limit).map((r) => ({
      cursor: r.cursor,
      kind: r.kind,
      resource: { type: r.resource_type, id: r.resource_id, ...(r.revision === null ? {} : { revision: r.revision }) },
      committed_at: r.committed_at.toISOString(),
    }));
    const feed = { changes, next_cursor: changes.at(-1)?.cursor ?? since ?? '0', has_more: rows.length > limit };
    linkCursor(c, feed);
    return sendJson(c, feed, 'public, max-age=2');
  };
}
