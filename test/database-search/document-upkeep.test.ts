/**
 * Keeping the search documents costs a commit one noted row per family
 * (db/migrations/000021.sql): the commit reads and writes no document. The
 * catch-up that refreshes the noted families reads those families'
 * documents, never the whole table (000013.sql, 000014.sql), and the
 * exact-key index keeps no pending list to read through. The documents'
 * contents are documents.test.ts's subject.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { createPool, withTransaction, type Queryable } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { insertProblem, insertProblemRevision, setProblemRevision } from '../../db/queries/problems.ts';
import { insertSolution, insertSolutionRevision } from '../../db/queries/solutions.ts';
import { catchUpSearchDocumentsIn, searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { cloneDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
const agent = newId('agent');
/**
 * Enough documents that reading them all is the planner's worst choice. Not
 * analysed, as after a burst of writes before autovacuum comes round: the
 * blind plan of the old recount then read the whole table.
 */
const CORPUS = 3000;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 2);
  await insertIdentity(pool, { id: agent, kind: 'pseudonymous', handle: 'upkeep-agent', display_name: null });
  // One statement each, so the triggers refresh the corpus in one set-based pass.
  await withTransaction(pool, async (tx) => {
    await tx.query(
      `INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
       SELECT 'prb_upkeep' || n, $1::text, 1, now(), now() FROM generate_series(1, $2::int) AS n`,
      [agent, CORPUS],
    );
    await tx.query(
      `INSERT INTO problem_revisions (problem_id, revision, title, body, product, error_literal, author_id, created_at)
       SELECT 'prb_upkeep' || n, 1, 'Build number ' || n || ' fails', 'Body of problem ' || n, 'webpack',
              'Error: ENOSPC in watcher ' || n, $1::text, now()
         FROM generate_series(1, $2::int) AS n`,
      [agent, CORPUS],
    );
  });
  await searchDocumentsCaughtUp(pool);
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** Sequential scans of search_documents made so far by the transaction on `tx`. */
async function tableScans(tx: Queryable): Promise<number> {
  const r = await tx.query<{ n: string }>(
    `SELECT coalesce(seq_scan, 0) AS n FROM pg_stat_xact_user_tables WHERE relname = 'search_documents'`,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/** A new problem, its solution and an outcome on it; returns the problem's id. */
async function writeFamily(tx: Queryable, at: Date): Promise<string> {
  const problemId = newId('problem');
  await insertProblem(tx, { id: problemId, authorId: agent, at });
  await insertProblemRevision(tx, {
    problemId,
    revision: 1,
    authorId: agent,
    at,
    content: {
      title: 'Watcher limit reached',
      body: 'The dev server stops.',
      product: 'webpack',
      error_literal: 'Error: ENOSPC',
      environment: {},
      tags: [],
    },
  });
  const solutionId = newId('solution');
  await insertSolution(tx, { id: solutionId, problemId, authorId: agent, at });
  await insertSolutionRevision(tx, {
    solutionId,
    revision: 1,
    authorId: agent,
    at,
    content: { body: 'Raise fs.inotify.max_user_watches.', applicability: null, limitations: null },
  });
  await insertOutcome(tx, {
    id: newId('outcome'),
    solutionId,
    solutionRevision: 1,
    identityId: agent,
    signal: 'worked',
    note: null,
    environment: {},
    at,
  });
  return problemId;
}

describe('search document upkeep', () => {
  it('costs a commit no document: a new problem, its solution and an outcome only note their family', async () => {
    const { scans, documents, noted } = await withTransaction(pool, async (tx) => {
      const before = await tableScans(tx);
      const at = new Date();
      const problemId = await writeFamily(tx, at);
      const written = await tx.query('SELECT count(*)::int AS n FROM search_documents WHERE family = $1::text', [
        problemId,
      ]);
      const pending = await tx.query('SELECT DISTINCT family FROM search_pending WHERE family = $1::text', [problemId]);
      return {
        scans: (await tableScans(tx)) - before,
        documents: written.rows[0].n,
        noted: pending.rows.map((r) => r.family),
      };
    });
    expect(documents).toBe(0);
    expect(noted).toHaveLength(1);
    expect(scans).toBe(0);
    expect(await searchDocumentsCaughtUp(pool)).toBeGreaterThan(0);
    const indexed = await pool.query(
      'SELECT type, worked FROM search_documents WHERE family = $1::text ORDER BY type',
      [noted[0]],
    );
    expect(indexed.rows).toEqual([
      { type: 'problem', worked: 1 },
      { type: 'solution', worked: 1 },
    ]);
  });

  it('reads only the family it refreshes: catching up on a new problem, its solution, an outcome and an edit scans no table of documents', async () => {
    const scans = await withTransaction(pool, async (tx) => {
      const before = await tableScans(tx);
      const at = new Date();
      const problemId = await writeFamily(tx, at);
      await insertProblemRevision(tx, {
        problemId,
        revision: 2,
        authorId: agent,
        at,
        content: {
          title: 'Watcher limit reached on Linux',
          body: 'The dev server stops.',
          product: 'webpack',
          error_literal: 'Error: ENOSPC',
          environment: {},
          tags: [],
        },
      });
      await setProblemRevision(tx, problemId, 2, at);
      await catchUpSearchDocumentsIn(tx, 100);
      const counted = await tx.query('SELECT worked FROM search_documents WHERE id = $1::text', [problemId]);
      expect(counted.rows[0]).toEqual({ worked: 1 });
      return (await tableScans(tx)) - before;
    });
    expect(scans).toBe(0);
  });

  it('keeps no pending list on the exact-key index exact matches read', async () => {
    const r = await pool.query<{ reloptions: string[] | null }>(
      `SELECT reloptions FROM pg_class WHERE relname = 'search_documents_exact'`,
    );
    expect(r.rows[0]!.reloptions).toContain('fastupdate=off');
  });
});
