/** `GET /api/v1/search` (first-stage candidates) and `GET /api/search` (the same, with coverage). */
import type { Context } from 'hono';
import type pg from 'pg';
import { apiError } from '../../core/errors.ts';
import { runSearch, type SearchResult } from '../../database-search/run-search.ts';
import { SearchParamsSchema, type SearchParams } from '../../core/schemas/search-params.ts';
import type { Config } from '../../core/config.ts';
import { withTransaction } from '../../db/pool.ts';
import { searchSettings } from '../../db/queries/search.ts';
import { CONTENT_TRUST } from '../../read-model/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkPages } from '../page-links.ts';
import { CACHE, sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

/**
 * Longest a search statement may run. Measured searches take milliseconds
 * (README, Search); a query of many common words can take a few hundred.
 * Past this the database is overloaded, and the answer is 503.
 */
export const SEARCH_STATEMENT_TIMEOUT_MS = 3000;

const QUERY_CANCELED = '57014';

/**
 * Runs a search in one transaction whose statements are time-limited; a
 * cancelled one is 503. Its statements are planned once per connection
 * (prepared), except on the embedded database, whose connections share one
 * session and so one namespace of prepared statements.
 */
export async function searchWithinLimit(
  pool: pg.Pool, params: SearchParams, config: Pick<Config, 'RETRY_AFTER_SECONDS' | 'EMBEDDED_DATABASE'>,
): Promise<SearchResult> {
  const prepared = !config.EMBEDDED_DATABASE;
  try {
    return await withTransaction(pool, (tx) => runSearch(tx, params, new Date(), { prepared }),
      `BEGIN; ${searchSettings(SEARCH_STATEMENT_TIMEOUT_MS)}`);
  } catch (error) {
    if ((error as { code?: string } | null)?.code !== QUERY_CANCELED) throw error;
    throw apiError('search_unavailable', { seconds: SEARCH_STATEMENT_TIMEOUT_MS / 1000 }, { retryAfter: config.RETRY_AFTER_SECONDS });
  }
}

export function createSearchHandlers({ pool, config }: AppDeps) {
  const search = (c: Context) =>
    searchWithinLimit(pool, parseOrThrow(SearchParamsSchema, c.req.query(), 'query'), config);
  return {
    async searchV1(c: Context): Promise<Response> {
      const { coverage: _, ...result } = await search(c);
      linkPages(c, result);
      return sendJson(c, { content_trust: CONTENT_TRUST, ...result }, CACHE.collection);
    },
    async search(c: Context): Promise<Response> {
      const result = await search(c);
      linkPages(c, result);
      return sendJson(c, { content_trust: CONTENT_TRUST, ...result }, CACHE.collection);
    },
  };
}
