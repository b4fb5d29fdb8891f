/** `GET /api/v1/search` (first-stage candidates) and `GET /api/search` (the same, with coverage). */
import type { Context } from 'hono';
import type pg from 'pg';
import { apiError } from '../../core/errors.ts';
import { runSearch, type SearchResult } from '../../database-search/run-search.ts';
import { SearchParamsSchema, type SearchParams } from '../../core/schemas/search-params.ts';
import type { Config } from '../../core/config.ts';
import { createPool, withClient, withTransaction } from '../../db/pool.ts';
import { searchSessionOptions, searchSettings } from '../../db/queries/search.ts';
import { CONTENT_TRUST } from '../../read-model/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkPages } from '../http/page-links.ts';
import { CACHE, sendJson } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

/**
 * Longest a search statement may run. Measured searches take milliseconds
 * (docs/search.md); a query of many common words can take a few hundred.
 * Past this the database is overloaded, and the answer is 503.
 */
export const SEARCH_STATEMENT_TIMEOUT_MS = 3000;

const QUERY_CANCELED = '57014';

/**
 * Runs a search whose statements are time-limited, read through indexes and
 * run on generic plans (db/queries/search.ts, `searchSettings`); a cancelled
 * one is 503. With a search pool (`searchPool`, whose sessions were opened
 * with those settings) it runs on one of its connections as it is, with no
 * transaction around it; else in a transaction that sets them (`BEGIN; SET
 * LOCAL …` … `COMMIT`, two more round trips): the embedded database, whose
 * connections share one session, so a session setting would reach every
 * statement of the service. Its statements are planned once per connection
 * (prepared), except on the embedded database, for the same reason: one
 * namespace of prepared statements.
 */
export async function searchWithinLimit(
  {
    pool,
    searchPool,
    config,
  }: Pick<AppDeps, 'pool' | 'searchPool'> & { config: Pick<Config, 'RETRY_AFTER_SECONDS' | 'EMBEDDED_DATABASE'> },
  params: SearchParams,
): Promise<SearchResult> {
  const prepared = !config.EMBEDDED_DATABASE;
  const run = (db: pg.ClientBase) => runSearch(db, params, new Date(), { prepared });
  try {
    return searchPool && !config.EMBEDDED_DATABASE
      ? await withClient(searchPool, run)
      : await withTransaction(pool, run, `BEGIN; ${searchSettings(SEARCH_STATEMENT_TIMEOUT_MS)}`);
  } catch (error) {
    if ((error as { code?: string } | null)?.code !== QUERY_CANCELED) throw error;
    throw apiError(
      'search_unavailable',
      { seconds: SEARCH_STATEMENT_TIMEOUT_MS / 1000 },
      { retryAfter: config.RETRY_AFTER_SECONDS },
    );
  }
}

/**
 * The API's search pool: sessions opened with the search settings, so a
 * search costs its own statements alone. Four connections: the machine the
 * service is sized for has two cores, and a search is CPU work in
 * PostgreSQL; more searches at once queue here rather than in the server.
 */
export function createSearchPool(connectionString: string, applicationName?: string): pg.Pool {
  return createPool(
    connectionString,
    SEARCH_POOL_SIZE,
    applicationName,
    searchSessionOptions(SEARCH_STATEMENT_TIMEOUT_MS),
  );
}

const SEARCH_POOL_SIZE = 4;

export function createSearchHandlers(deps: AppDeps) {
  const search = (c: Context) => searchWithinLimit(deps, parseOrThrow(SearchParamsSchema, c.req.query(), 'query'));
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
