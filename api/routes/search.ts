/** `GET /api/v1/search` (first-stage candidates) and `GET /api/search` (the same, with coverage). */
import type { Context } from 'hono';
import { runSearch } from '../../core/search/run-search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { CONTENT_TRUST } from '../../site/lib/views/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { CACHE, sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

export function createSearchHandlers({ pool }: AppDeps) {
  return {
    async searchV1(c: Context): Promise<Response> {
      const params = parseOrThrow(SearchParamsSchema, c.req.query(), 'query');
      const { coverage: _, ...result } = await runSearch(pool, params);
      return sendJson(c, { content_trust: CONTENT_TRUST, ...result }, CACHE.collection);
    },
    async search(c: Context): Promise<Response> {
      const params = parseOrThrow(SearchParamsSchema, c.req.query(), 'query');
      return sendJson(c, { content_trust: CONTENT_TRUST, ...(await runSearch(pool, params)) }, CACHE.collection);
    },
  };
}
