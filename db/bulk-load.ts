/**
 * Loading many records at once in time that grows with their number, not
 * faster. Search documents already follow commits off the write path (the
 * triggers note what changed in search_pending; the catch-up refreshes it in
 * set-based batches), but each document still goes into three GIN indexes
 * (exact keys, trigrams, text search) one row at a time, and over a bulk load
 * that upkeep grows with the indexes. When the load starts from no search
 * documents at all, those indexes are dropped before it and built once after
 * the catch-up (a bulk index build, far cheaper than as many inserts).
 *
 * Into a database that already has documents the indexes stay: searches go
 * on meanwhile, and the load's documents are added through the same catch-up.
 */
import type pg from 'pg';
import { searchDocumentsCaughtUp } from './queries/search.ts';

/** The search indexes a fresh load builds once at the end instead of row by row. */
const DEFERRED_INDEXES = ['search_documents_exact', 'search_documents_trgm', 'search_documents_tsv'];

export interface BulkLoadTimings {
  /** The load and the search catch-up after it. */
  loadSeconds: number;
  indexSeconds: number;
  /** Whether the GIN indexes were dropped for the load and built after it. */
  rebuiltIndexes: boolean;
}

/** Runs `load`, catches the search documents up, and builds the indexes it set aside. */
export async function bulkLoad(pool: pg.Pool, load: () => Promise<void>): Promise<BulkLoadTimings> {
  const { rows: [empty] } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM search_documents) AS empty');
  const definitions = empty!.empty ? await dropDeferredIndexes(pool) : [];
  let started = performance.now();
  await load();
  await searchDocumentsCaughtUp(pool);
  const loadSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await createIndexes(pool, definitions);
  await pool.query('ANALYZE search_documents');
  return { loadSeconds, indexSeconds: (performance.now() - started) / 1000, rebuiltIndexes: definitions.length > 0 };
}

/** Drops the deferred indexes and returns their definitions, to build them again. */
async function dropDeferredIndexes(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'search_documents' AND indexname = ANY($1::text[])`,
    [DEFERRED_INDEXES]);
  for (const row of rows) await pool.query(`DROP INDEX IF EXISTS ${row.indexname}`);
  // IF NOT EXISTS: a load that died midway and is run again finds some built already.
  return rows.map((r) => r.indexdef.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
}

async function createIndexes(pool: pg.Pool, definitions: string[]): Promise<void> {
  if (!definitions.length) return;
  const client = await pool.connect();
  try {
    // One sort per index, in memory where it fits, instead of spilling to disk.
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const definition of definitions) await client.query(definition);
  } finally {
    client.release(true);
  }
}
