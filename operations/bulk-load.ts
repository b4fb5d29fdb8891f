/**
 * What a bulk load (the operator's import, the benchmark seeder) does around
 * its rows, so that its cost stays linear in what it loads: the search
 * indexes are built once after the load rather than row by row during it,
 * the search documents are built by the one builder the worker uses, on
 * several connections at once, and the champion lists are built once at the
 * end (docs/design-writes.md, Bulk loads).
 */
import type pg from 'pg';
import { buildSearchChampions } from '../db/queries/search.ts';
import { deferSearchIndexes } from '../db/queries/search-documents.ts';
import { restoreSearchIndexes, searchDocumentsCaughtUp } from '../database-search/search-catch-up.ts';

/** Catching up until nothing waits, for the commands that write in bulk (the stored-record redaction). */
export { searchDocumentsCaughtUp };

/**
 * Before the rows: when no search document exists yet (a new service), drops the indexes of the
 * search documents but the primary key and the family index, to be built by `finishBulkLoad`
 * (db/migrations/000041.sql). Returns how many.
 */
export function prepareBulkLoad(pool: pg.Pool): Promise<number> {
  return deferSearchIndexes(pool);
}

export interface BulkLoadFinish {
  /** Noted changes indexed. */
  indexed: number;
  /** Building the search documents, their deferred indexes and their statistics (the three below). */
  search_seconds: number;
  documents_seconds: number;
  indexes_seconds: number;
  analyze_seconds: number;
  champions_seconds: number;
}

/**
 * After the rows: builds the search documents of everything the load noted (and of anything else
 * waiting), the indexes `prepareBulkLoad` deferred (also those of a load that died before this step),
 * the planner's statistics, and, when `champions`, the champion lists.
 */
export async function finishBulkLoad(pool: pg.Pool, options: { champions: boolean }): Promise<BulkLoadFinish> {
  const seconds = (since: number) => (performance.now() - since) / 1000;
  let started = performance.now();
  // The planner's statistics of the tables just loaded: the catch-up reads them family by family.
  await pool.query('ANALYZE problems, problem_revisions, solutions, solution_revisions, outcomes, discussions');
  const indexed = await searchDocumentsCaughtUp(pool, { restoreIndexes: false });
  const documents_seconds = seconds(started);
  started = performance.now();
  await restoreSearchIndexes(pool);
  const indexes_seconds = seconds(started);
  started = performance.now();
  if (indexed > 0) await pool.query('ANALYZE search_documents');
  const analyze_seconds = seconds(started);
  started = performance.now();
  if (options.champions) await buildSearchChampions(pool);
  return {
    indexed,
    search_seconds: documents_seconds + indexes_seconds + analyze_seconds,
    documents_seconds,
    indexes_seconds,
    analyze_seconds,
    champions_seconds: seconds(started),
  };
}
