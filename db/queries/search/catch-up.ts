/** How far the search documents are behind the changes commits noted (db/migrations/000021.sql). */
import type { Queryable } from '../../pool.ts';

/**
 * How many noted changes the worker's catch-up takes (database-search/search-catch-up.ts): enough to
 * amortize each batch's statements, few enough to commit in tens of milliseconds. Bulk loads take more.
 */
export const SEARCH_CATCH_UP_BATCH = 500;

export interface SearchDocumentsLag {
  /** Changes committed and not yet in the search documents. */
  pending: number;
  /** How long the oldest of them has waited; 0 when none. */
  oldestSeconds: number;
}

/** How far the search documents are behind the commits (operator status and metrics). */
export async function readSearchDocumentsLag(db: Queryable): Promise<SearchDocumentsLag> {
  const r = await db.query<SearchDocumentsLag>(
    `SELECT count(*)::int AS pending,
            coalesce(extract(epoch FROM clock_timestamp() - min(queued_at)), 0)::float8 AS "oldestSeconds"
       FROM search_pending`,
  );
  return r.rows[0]!;
}
