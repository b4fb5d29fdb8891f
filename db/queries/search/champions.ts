/** The champion lists (db/migrations/000016.sql): compacting, building, and how far behind they are. */
import type { Queryable } from '../../pool.ts';

/**
 * Folds the search documents changed since the champion lists' last compaction into them
 * (db/migrations/000016.sql), when at least `minChanged` are waiting, and builds every list when they
 * were never built or a fifth of the corpus changed since. Returns how many it folded (-1: it built them).
 * Run by the worker after render passes, off the commit transaction.
 */
export async function compactSearchChampions(db: Queryable, minChanged: number): Promise<number> {
  const r = await db.query<{ folded: number }>('SELECT ak_search_compact_champions($1::int) AS folded', [minChanged]);
  return r.rows[0]!.folded;
}

/**
 * The render worker folds the documents changed since the champion lists' last compaction into them once
 * this many are waiting, at most every 2 s (worker/runtime.ts); a search reads those documents directly
 * meanwhile, and stops using the lists past CHAMPION_RECENT_CAP (database-search/run-search.ts). Fewer
 * may wait for as long as writes are quiet: that is not a lag.
 */
export const CHAMPION_COMPACT_AT = 100;

export interface ChampionState {
  built: boolean;
  /** Documents stamped since the last compaction: every keyword search reads these directly until they are folded in. */
  unfolded: number;
  /** Once a compaction is due (CHAMPION_COMPACT_AT waiting), how long the oldest of them has waited, by its last update; else 0. */
  lagSeconds: number;
}

/**
 * How far the champion lists are behind the documents (operator status and metrics): a compaction that
 * keeps failing shows as a growing `lagSeconds` and `unfolded`, and, past CHAMPION_RECENT_CAP, as
 * keyword searches that no longer use the lists. Before the first build every document waits, and
 * the first write's pass builds them; that is not counted as lag either.
 */
export async function readChampionState(db: Queryable): Promise<ChampionState> {
  const r = await db.query<ChampionState>(
    `SELECT s.built, w.unfolded,
            CASE WHEN s.built AND w.unfolded >= $1::int
                 THEN extract(epoch FROM clock_timestamp() - w.oldest)::float8 ELSE 0 END AS "lagSeconds"
       FROM search_champion_state s
      CROSS JOIN LATERAL (SELECT count(*)::int AS unfolded, min(d.updated_at) AS oldest
                            FROM search_documents d WHERE d.changed_xid >= s.watermark) w`,
    [CHAMPION_COMPACT_AT],
  );
  return r.rows[0]!;
}

/**
 * Builds every champion list again (db/migrations/000016.sql): what the first compaction does, and what
 * a bulk load (the seed, the evaluation) runs itself. `listSize` and `minDocs` default to the stored ones.
 */
export async function buildSearchChampions(db: Queryable, listSize?: number, minDocs?: number): Promise<void> {
  await db.query('SELECT ak_search_build_champions($1::int, $2::int)', [listSize ?? null, minDocs ?? null]);
}
