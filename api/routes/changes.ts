/**
 * `GET /api/v1/changes`: public committed changes after a cursor, built by
 * the read model (read-model/feeds.ts) as the `list_changes` tool answers it.
 */
import type { Context } from 'hono';
import { ChangesParamsSchema } from '../../core/schemas/read-params.ts';
import { buildChangesPage } from '../../read-model/feeds.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkCursor } from '../http/page-links.ts';
import { sendJson } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

export function createChangesHandler({ pool }: AppDeps) {
  return async function listChanges(c: Context): Promise<Response> {
    const feed = await buildChangesPage(pool, parseOrThrow(ChangesParamsSchema, c.req.query(), 'query'));
    linkCursor(c, feed);
    return sendJson(c, feed, 'public, max-age=2');
  };
}
