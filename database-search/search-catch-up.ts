/**
 * The search catch-up (docs/design-writes.md): brings the search documents
 * up to date with a batch of the changes commits noted, building each
 * document's normalized text and keys here (document-text.ts) rather than
 * in PostgreSQL, in one transaction: take the noted rows (skipping those
 * another catch-up holds), lock every family of the batch at once, read
 * them after the lock, write their documents, recount their signals. A
 * catch-up that fails rolls back and leaves its rows for the next. The
 * worker runs it in small batches as commits come; a bulk load (the seeder,
 * the operator's import) runs `searchDocumentsCaughtUp`, in large batches
 * on several connections at once.
 */
import pg from 'pg';
import { withTransaction, type Queryable } from '../db/pool.ts';
import { readSearchDocumentsLag } from '../db/queries/search.ts';
import {
  deferredSearchIndexes,
  lockAndReadDocumentSources,
  putDocuments,
  restoreSearchIndex,
  SEARCH_SLICES,
  type SliceShare,
  takeNotedChanges,
  type NotedChange,
  type RefreshSets,
} from '../db/queries/search-documents.ts';
import { buildDocuments } from './document-text.ts';

/** Splits a batch: a family refreshed whole covers its solutions and signals. */
export function refreshSets(taken: NotedChange[]): RefreshSets {
  const families = new Set<string>();
  const discussions = new Set<string>();
  for (const t of taken) {
    if (t.kind === 'family') families.add(t.family);
    else if (t.kind === 'discussion') discussions.add(t.family);
  }
  const solutionFamilies = new Set<string>();
  const onlySolutions = new Set<string>();
  for (const t of taken) {
    if (t.kind !== 'solution' || families.has(t.family)) continue;
    solutionFamilies.add(t.family);
    if (t.solution !== null) onlySolutions.add(t.solution);
  }
  const signalFamilies = new Set<string>();
  for (const t of taken)
    if (t.kind === 'signals' && !families.has(t.family) && !solutionFamilies.has(t.family))
      signalFamilies.add(t.family);
  return {
    families: [...families],
    solutionFamilies: [...solutionFamilies],
    onlySolutions: [...onlySolutions],
    signalFamilies: [...signalFamilies],
    discussions: [...discussions],
  };
}

/**
 * Indexes up to `maxRows` noted changes, the oldest first, in the caller's transaction `tx`. Returns
 * when each was noted (epoch milliseconds), oldest first: an empty list when nothing was waiting.
 */
export async function catchUpSearchDocumentsIn(tx: Queryable, maxRows: number, share?: SliceShare): Promise<number[]> {
  const taken = await takeNotedChanges(tx, maxRows, share);
  if (taken.length === 0) return [];
  const sets = refreshSets(taken);
  const sources = await lockAndReadDocumentSources(tx, sets);
  await putDocuments(tx, sets, buildDocuments(sources));
  return taken.map((t) => t.noted);
}

/** `catchUpSearchDocumentsIn`, in a transaction of its own: what the worker runs. */
export function catchUpSearchDocumentsBuilt(pool: pg.Pool, maxRows: number): Promise<number[]> {
  return withTransaction(pool, (tx) => catchUpSearchDocumentsIn(tx, maxRows));
}

/**
 * Noted changes one bulk catch-up takes: the statements' fixed costs (planning, the lock, the signal
 * recount's scan) spread over many documents, and a batch's JSON (some 1 MB per 1,000 documents) small.
 */
export const BULK_CATCH_UP_BATCH = 2000;

export interface CaughtUpOptions {
  /** Noted changes per transaction (BULK_CATCH_UP_BATCH). */
  batch?: number;
  /** Catch-ups side by side when `db` is a pool, each over its own slices of the families (2; 1, 2, 4 or 8). */
  connections?: number;
  /** Build the indexes a bulk load deferred (true); false leaves that to the caller (restoreSearchIndexes). */
  restoreIndexes?: boolean;
}

/**
 * Catches up until nothing is waiting: a bulk load, a test that searches what it just wrote. With a pool,
 * `connections` catch-ups run side by side, each taking the families of its own slices (db/migrations/
 * 000041.sql), so that Node builds one batch's documents while PostgreSQL writes another's and no two
 * wait on each other's locks; then indexes built again any index a bulk load deferred. With a client,
 * one batch after another in the caller's transaction. Returns how many changes it indexed.
 */
export async function searchDocumentsCaughtUp(db: pg.Pool | Queryable, options: CaughtUpOptions = {}): Promise<number> {
  const batch = options.batch ?? BULK_CATCH_UP_BATCH;
  const pool = db instanceof pg.Pool ? db : null;
  const once = (share?: SliceShare) =>
    pool
      ? withTransaction(pool, (tx) => catchUpSearchDocumentsIn(tx, batch, share))
      : catchUpSearchDocumentsIn(db, batch, share);
  let total = 0;
  const connections = pool ? (options.connections ?? 2) : 1;
  if (SEARCH_SLICES % connections !== 0) throw new Error(`connections must divide ${SEARCH_SLICES}`);
  // The statistics of a table that grows from nothing to a million documents during the load: planned
  // with those of an empty one, the deletes and the signal recount read every document for every batch.
  let analyzedAt = pool ? await documentCount(pool) : 0;
  let analyzing: Promise<unknown> | null = null;
  const analyzeAsItGrows = (p: pg.Pool) => {
    if (analyzing || total < Math.max(ANALYZE_FIRST_AFTER, analyzedAt)) return;
    analyzedAt = 2 * Math.max(total, analyzedAt);
    analyzing = p.query('ANALYZE search_documents').finally(() => (analyzing = null));
  };
  if (connections > 1 && pool)
    await Promise.all(
      Array.from({ length: connections }, async (_, index) => {
        const share: SliceShare = { of: connections, index };
        for (let n = 1; n > 0; ) {
          n = (await once(share)).length;
          total += n;
          analyzeAsItGrows(pool);
        }
      }),
    );
  await analyzing;
  for (;;) {
    const noted = await once();
    total += noted.length;
    if (noted.length > 0) continue;
    // Rows another catch-up holds are skipped: wait for its commit.
    if ((await readSearchDocumentsLag(db)).pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (pool && options.restoreIndexes !== false) await restoreSearchIndexes(pool, connections);
  return total;
}

/** A bulk catch-up analyzes search_documents once this many changes are indexed, then each time they double. */
const ANALYZE_FIRST_AFTER = 20_000;

async function documentCount(pool: pg.Pool): Promise<number> {
  const r = await pool.query<{ n: number }>(
    `SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'search_documents'::regclass`,
  );
  return r.rows[0]?.n ?? 0;
}

/**
 * Builds again the search indexes a bulk load deferred (deferSearchIndexes), `connections` at a time
 * (CREATE INDEX builds on one core; two build side by side). Returns how many it built.
 */
export async function restoreSearchIndexes(pool: pg.Pool, connections = 2): Promise<number> {
  const names = await deferredSearchIndexes(pool);
  let built = 0;
  await Promise.all(
    Array.from({ length: Math.min(connections, names.length) }, async () => {
      for (let name = names.shift(); name !== undefined; name = names.shift())
        if (await restoreSearchIndex(pool, name)) built++;
    }),
  );
  return built;
}
