/** Bringing the search documents up to date with the changes commits noted (db/migrations/000021.sql). */
import type { Queryable } from '../../pool.ts';

/**
 * Brings the search documents up to date with up to `maxRows` of the changes commits noted
 * (db/migrations/000021.sql, ak_search_catch_up), the oldest first, in one transaction of its own
 * unless `db` is already in one. Returns when each change it indexed was noted (epoch milliseconds):
 * an empty list when nothing was waiting.
 */
export async function catchUpSearchDocuments(db: Queryable, maxRows: number): Promise<number[]> {
  const r = await db.query<{ noted: number[] }>('SELECT ak_search_catch_up($1::int) AS noted', [maxRows]);
  return r.rows[0]!.noted;
}

/** How many noted changes one catch-up takes: enough to amortize each family refresh's planning, few enough to commit in tens of milliseconds. */
export const SEARCH_CATCH_UP_BATCH = 500;

/** Catches up until nothing is waiting (a bulk load, a test that searches what it just wrote). Returns how many changes it indexed. */
export async function searchDocumentsCaughtUp(db: Queryable, maxRows = 10_000): Promise<number> {
  let total = 0;
  for (;;) {
    const noted = await catchUpSearchDocuments(db, maxRows);
    total += noted.length;
    if (noted.length > 0) continue;
    // Rows another catch-up holds are skipped: wait for its commit.
    if ((await readSearchDocumentsLag(db)).pending === 0) return total;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
