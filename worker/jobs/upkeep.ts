/**
 * Tasks run in the worker's own process, coalesced (table.ts): each run does
 * everything an earlier one would, so requests made while one waits or runs
 * cost nothing.
 */
import { createPool } from '../../db/pool.ts';
import { catchUpSearchDocumentsBuilt } from '../../database-search/search-catch-up.ts';
import { CHAMPION_COMPACT_AT, compactSearchChampions, SEARCH_CATCH_UP_BATCH } from '../../db/queries/search.ts';
import { updateSitemaps } from '../sitemap/sitemaps.ts';
import type { JobContext } from './context.ts';

/** A task's run, and what it holds open until the worker closes. */
export interface InProcessTask {
  run(): Promise<unknown>;
  close?(): Promise<void>;
}

/**
 * The sitemaps follow the change log on their own cursor, so one update
 * covers any number of render passes: only the day chunks of the record
 * kinds changed since the cursor.
 */
export function sitemapTask({ pool, config }: JobContext): InProcessTask {
  return { run: () => updateSitemaps(pool, config.PROJECTIONS_DIR, config.PUBLIC_ORIGIN) };
}

/** The search champion lists compacted off the commit transaction: commits only stamp the documents they changed. */
export function championTask({ pool }: JobContext): InProcessTask {
  return { run: () => compactSearchChampions(pool, CHAMPION_COMPACT_AT) };
}

/**
 * Search documents follow the commits in batches (db/migrations/000021.sql):
 * each run takes what commits noted since the last, so a burst of commits
 * costs a few set-based refreshes, not one each. On one session of its own,
 * named, so a catch-up never takes a commit's connection and its server CPU
 * shows apart in pg_stat_activity; the embedded database is served by the one
 * pool it has.
 */
export function searchDocumentTask({ config, pool, metrics }: JobContext): InProcessTask {
  const searchPool = config.EMBEDDED_DATABASE ? pool : createPool(config.DATABASE_URL, 1, 'ak-search-catch-up');
  return {
    async run() {
      for (;;) {
        const noted = await catchUpSearchDocumentsBuilt(searchPool, SEARCH_CATCH_UP_BATCH);
        const now = Date.now();
        for (const at of noted) metrics.searchLag.observe(Math.max(0, now - at) / 1000);
        if (noted.length < SEARCH_CATCH_UP_BATCH) return;
      }
    },
    async close() {
      if (searchPool !== pool) await searchPool.end();
    },
  };
}
