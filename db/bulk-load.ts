/**
 * Loading many records at once in time that grows with their number, not
 * faster. During an ordinary write, statement triggers refresh the search
 * documents of what the statement touched, and each new document goes into
 * three GIN indexes (exact keys, trigrams, text search) row by row; over a
 * bulk load that per-batch upkeep grows with the size of the indexes and
 * dominated the load. Here the load runs with the triggers off for its own
 * sessions only (`session_replication_role = replica`; other sessions keep
 * them), then the search documents of everything loaded are built in
 * set-based passes, and, when the load started from no search documents at
 * all, the GIN indexes are dropped before and built once after (a bulk
 * index build, far cheaper than as many single inserts).
 *
 * `session_replication_role` also skips foreign-key checks: the loader must
 * only insert rows whose references hold (the seeder generates them so; an
 * import checks them first). It needs a superuser (or, on PostgreSQL 15+, a
 * role granted SET on the parameter).
 */
import type pg from 'pg';
import { createPool } from './pool.ts';

/** The search indexes a fresh load builds once at the end instead of row by row. */
const DEFERRED_INDEXES = ['search_documents_exact', 'search_documents_trgm', 'search_documents_tsv'];
/** Families (or discussions) per refresh statement: large enough to be set-based, small enough to keep each statement's memory modest. */
const REFRESH_CHUNK = 2000;

export interface BulkLoadTimings {
  loadSeconds: number;
  searchSeconds: number;
  indexSeconds: number;
  /** Whether the GIN indexes were dropped for the load and built after it. */
  rebuiltIndexes: boolean;
}

/**
 * Runs `load` on a pool whose sessions fire no triggers, then brings the
 * search documents (and, for a fresh load, their indexes) up to date.
 */
export async function bulkLoad(databaseUrl: string, load: (pool: pg.Pool) => Promise<void>): Promise<BulkLoadTimings> {
  const pool = createPool(databaseUrl, 2, 'ak-bulk-load', '-c session_replication_role=replica');
  try {
    const { rows: [empty] } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM search_documents) AS empty');
    const definitions = empty!.empty ? await dropDeferredIndexes(pool) : [];
    let started = performance.now();
    await load(pool);
    const loadSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    // Statistics for what was just loaded: without them the refresh's joins are planned for empty tables.
    await pool.query('ANALYZE problems, problem_revisions, solutions, solution_revisions, outcomes, discussions');
    await refreshMissingSearchDocuments(pool);
    const searchSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await createIndexes(pool, definitions);
    await pool.query('ANALYZE search_documents');
    const indexSeconds = (performance.now() - started) / 1000;
    return { loadSeconds, searchSeconds, indexSeconds, rebuiltIndexes: definitions.length > 0 };
  } finally {
    await pool.end();
  }
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
  await withSession(pool, async (client) => {
    // One sort per index, in memory where it fits, instead of spilling to disk.
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const definition of definitions) await client.query(definition);
  });
}

/**
 * Builds the documents of every problem family with a problem or solution
 * that has none, and of every discussion without one: the ids are found in
 * one pass (anti-joins on the primary keys), then refreshed a chunk per
 * statement.
 */
async function refreshMissingSearchDocuments(pool: pg.Pool): Promise<void> {
  const families = await pool.query<{ id: string }>(`
    SELECT p.id FROM problems p WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = p.id)
    UNION
    SELECT s.problem_id FROM solutions s WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = s.id)
    ORDER BY 1`);
  await inChunks(pool, families.rows.map((r) => r.id), 'SELECT ak_search_refresh_families($1::text[])');
  const discussions = await pool.query<{ id: string }>(
    'SELECT x.id FROM discussions x WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = x.id) ORDER BY 1');
  await inChunks(pool, discussions.rows.map((r) => r.id), 'SELECT ak_search_refresh_discussions($1::text[])');
}

async function inChunks(pool: pg.Pool, ids: string[], refresh: string): Promise<void> {
  for (let i = 0; i < ids.length; i += REFRESH_CHUNK) await pool.query(refresh, [ids.slice(i, i + REFRESH_CHUNK)]);
}

async function withSession<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await fn(client);
  } finally {
    client.release(true);
  }
}
