/**
 * The search documents are kept by triggers (db/migrations/000003.sql), not
 * by the worker: these tests write with the worker's own statements and
 * assert the documents, including under concurrent transactions.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { newId } from '../../core/ids.ts';
import { keyHash, normalizeLiteral } from '../../database-search/normalize.ts';
import type { Signal } from '../../core/schemas/fields.ts';
import { createPool, withTransaction, type Queryable } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import {
  findMatchingDocuments,
  KIND_RANK,
  listNewestDocuments,
  NEWEST_COUNT_CAP,
  type MatchQuery,
} from '../../db/queries/search.ts';
import { catchUpSearchDocumentsIn, searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { RANKING_WEIGHTS } from '../../database-search/ranking.ts';
import { likePattern, runSearch, STRICT_CANDIDATE_CAP } from '../../database-search/run-search.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { pairKeys } from '../../database-search/substring-query.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { insertProblem, insertProblemRevision, setProblemRevision } from '../../db/queries/problems.ts';
import { insertSolution, insertSolutionRevision } from '../../db/queries/solutions.ts';
import { adminUrl, cloneDatabase, databaseUrl } from '../helpers/database.ts';
import { eventually } from '../helpers/client.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
const agents: string[] = [];

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 10);
  for (let i = 0; i < 4; i++) {
    const id = newId('agent');
    await insertIdentity(pool, { id, kind: 'pseudonymous', handle: `doc-agent-${i}`, display_name: null });
    agents.push(id);
  }
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const LITERAL = 'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)';

async function createProblem(db: Queryable, over: { title?: string; literal?: string | null } = {}): Promise<string> {
  const id = newId('problem');
  const at = new Date();
  await insertProblem(db, { id, authorId: agents[0]!, at });
  await insertProblemRevision(db, {
    problemId: id,
    revision: 1,
    authorId: agents[0]!,
    at,
    content: {
      title: over.title ?? 'Postgres refuses connections at start',
      body: 'The app starts first.',
      product: 'node-postgres',
      error_literal: over.literal === undefined ? LITERAL : over.literal,
      environment: {},
      tags: ['startup'],
    },
  });
  return id;
}

async function createSolution(
  db: Queryable,
  problemId: string,
  body = 'Wait for pg_isready before starting.',
): Promise<string> {
  const id = newId('solution');
  const at = new Date();
  await insertSolution(db, { id, problemId, authorId: agents[1]!, at });
  await insertSolutionRevision(db, {
    solutionId: id,
    revision: 1,
    authorId: agents[1]!,
    at,
    content: { body, applicability: null, limitations: null },
  });
  return id;
}

async function report(
  db: Queryable,
  solutionId: string,
  identityId: string,
  signal: Signal,
  at = new Date(),
): Promise<void> {
  await insertOutcome(db, {
    id: newId('outcome'),
    solutionId,
    solutionRevision: 1,
    identityId,
    signal,
    note: null,
    environment: {},
    at,
  });
}

/** Search documents follow the commits in batches: what a test reads is what they show once caught up. */
async function documentOf(id: string) {
  await searchDocumentsCaughtUp(pool);
  const r = await pool.query('SELECT * FROM search_documents WHERE id = $1::text', [id]);
  return r.rows[0] ?? null;
}

const signalsOf = async (id: string) => {
  const d = await documentOf(id);
  return { worked: d.worked, partially_worked: d.partially_worked, did_not_work: d.did_not_work };
};

describe('search documents', () => {
  it('index a committed problem by its normalized literal, title and lines', async () => {
    const id = await withTransaction(pool, (tx) => createProblem(tx));
    const doc = await documentOf(id);
    expect(doc).toMatchObject({
      type: 'problem',
      family: id,
      title: 'Postgres refuses connections at start',
      product: 'node-postgres',
      status: 'open',
    });
    expect(doc.snippet).toBe(
      'Error: connect ECONNREFUSED 127.0.0.1:5432 at TCPConnectWrap.afterConnect (node:net:1555:16)',
    );
    expect(doc.text_norm).toContain('connect econnrefused <ip>:<n>');
    expect(doc.exact_keys).toEqual(
      expect.arrayContaining([
        keyHash(normalizeLiteral(LITERAL)),
        keyHash('connect econnrefused <ip>:<n>'),
        keyHash('postgres refuses connections at start'),
      ]),
    );
    expect(doc.tsv).toContain("'econnrefus'");
    // The second ranking stage reads whether a candidate's literal equals the query's message by this key.
    expect(doc.literal_key).toBe(keyHash(normalizeLiteral(LITERAL)));
  });

  it('key a family by its literal only when it has one', async () => {
    const id = await withTransaction(pool, (tx) => createProblem(tx, { literal: '   ' }));
    expect((await documentOf(id)).literal_key).toBeNull();
  });

  it('give a solution its problem title and literal, and follow edits of the problem', async () => {
    const problemId = await withTransaction(pool, (tx) => createProblem(tx));
    const solutionId = await withTransaction(pool, (tx) => createSolution(tx, problemId));
    expect(await documentOf(solutionId)).toMatchObject({
      type: 'solution',
      family: problemId,
      title: 'Postgres refuses connections at start',
      status: 'active',
      snippet: 'Wait for pg_isready before starting.',
    });
    expect((await documentOf(solutionId)).exact_keys).toContain(keyHash('connect econnrefused <ip>:<n>'));
    expect((await documentOf(solutionId)).literal_key).toBe(keyHash(normalizeLiteral(LITERAL)));

    await withTransaction(pool, async (tx) => {
      const at = new Date();
      await insertProblemRevision(tx, {
        problemId,
        revision: 2,
        authorId: agents[0]!,
        at,
        content: {
          title: 'Connection refused by Postgres in Compose',
          body: 'b',
          product: 'postgres',
          error_literal: 'FATAL: the database system is starting up',
          environment: {},
          tags: [],
        },
      });
      // The new revision is not current yet, so nothing changes until the head moves.
      await searchDocumentsCaughtUp(tx);
      expect((await tx.query('SELECT title FROM search_documents WHERE id = $1', [problemId])).rows[0].title).toBe(
        'Postgres refuses connections at start',
      );
      await setProblemRevision(tx, problemId, 2, at);
    });
    for (const id of [problemId, solutionId]) {
      const doc = await documentOf(id);
      expect(doc).toMatchObject({ title: 'Connection refused by Postgres in Compose', product: 'postgres' });
      expect(doc.exact_keys).toContain(keyHash('the database system is starting up'));
      expect(doc.exact_keys).not.toContain(keyHash('connect econnrefused <ip>:<n>'));
      expect(doc.literal_key).toBe(keyHash(normalizeLiteral('FATAL: the database system is starting up')));
    }
  });

  it('count each identity once per solution, by its latest report, and sum them on the problem', async () => {
    const problemId = await withTransaction(pool, (tx) => createProblem(tx));
    const [a, b] = await withTransaction(pool, async (tx) => [
      await createSolution(tx, problemId),
      await createSolution(tx, problemId),
    ]);
    const t = Date.now();
    await report(pool, a!, agents[0]!, 'did_not_work', new Date(t));
    await report(pool, a!, agents[0]!, 'worked', new Date(t + 1000));
    await report(pool, a!, agents[0]!, 'worked', new Date(t + 2000));
    await report(pool, a!, agents[1]!, 'partially_worked', new Date(t));
    await report(pool, b!, agents[0]!, 'did_not_work', new Date(t));
    expect(await signalsOf(a!)).toEqual({ worked: 1, partially_worked: 1, did_not_work: 0 });
    expect(await signalsOf(b!)).toEqual({ worked: 0, partially_worked: 0, did_not_work: 1 });
    expect(await signalsOf(problemId)).toEqual({ worked: 1, partially_worked: 1, did_not_work: 1 });
  });

  it('count reports committed while another catch-up refreshes the family, none lost', async () => {
    const problemId = await withTransaction(pool, (tx) => createProblem(tx));
    const solutionId = await withTransaction(pool, (tx) => createSolution(tx, problemId));
    await searchDocumentsCaughtUp(pool);
    await report(pool, solutionId, agents[0]!, 'worked');
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      // The first catch-up counts the first report and holds the family until it commits.
      await first.query('BEGIN');
      expect(await catchUpSearchDocumentsIn(first, 100)).toHaveLength(1);
      await report(pool, solutionId, agents[1]!, 'worked');
      // The second must wait for the first commit, then count from a snapshot that has it.
      await second.query('BEGIN');
      const pid = (await second.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const blocked = catchUpSearchDocumentsIn(second, 100);
      await eventually(
        async () =>
          (await pool.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1::int AND wait_event_type = 'Lock'`, [pid]))
            .rowCount,
      );
      await first.query('COMMIT');
      expect(await blocked).toHaveLength(1);
      await second.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }
    expect(await signalsOf(solutionId)).toEqual({ worked: 2, partially_worked: 0, did_not_work: 0 });
    expect(await signalsOf(problemId)).toEqual({ worked: 2, partially_worked: 0, did_not_work: 0 });
  });

  it('index discussions by title and body, and follow their edits but not their reply counts', async () => {
    const id = newId('discussion');
    await pool.query(
      `INSERT INTO discussions (id, author_id, title, body, product, created_at, updated_at)
       VALUES ($1, $2, 'Waiting for Postgres in Compose', 'Healthchecks or wait-for-it?', 'docker', now(), now())`,
      [id, agents[0]],
    );
    expect(await documentOf(id)).toMatchObject({
      type: 'discussion',
      family: id,
      title: 'Waiting for Postgres in Compose',
      status: 'open',
      product: 'docker',
    });
    const before = await documentOf(id);
    await pool.query('UPDATE discussions SET reply_count = reply_count + 1 WHERE id = $1', [id]);
    expect((await documentOf(id)).tsv).toEqual(before.tsv);
    await pool.query(`UPDATE discussions SET status = 'archived', title = 'Waiting for MySQL' WHERE id = $1`, [id]);
    expect(await documentOf(id)).toMatchObject({ status: 'archived', title: 'Waiting for MySQL' });
  });

  it('drop the documents of deleted records and recount what remains', async () => {
    const problemId = await withTransaction(pool, (tx) => createProblem(tx));
    const solutionId = await withTransaction(pool, (tx) => createSolution(tx, problemId));
    await report(pool, solutionId, agents[2]!, 'worked');
    await withTransaction(pool, async (tx) => {
      await tx.query('DELETE FROM outcomes WHERE solution_id = $1', [solutionId]);
      await tx.query('DELETE FROM solution_revisions WHERE solution_id = $1', [solutionId]);
      await tx.query('DELETE FROM solutions WHERE id = $1', [solutionId]);
    });
    expect(await documentOf(solutionId)).toBeNull();
    expect(await signalsOf(problemId)).toEqual({ worked: 0, partially_worked: 0, did_not_work: 0 });
  });

  it('index every row of a bulk statement', async () => {
    const ids = Array.from({ length: 40 }, () => newId('problem'));
    await withTransaction(pool, async (tx) => {
      await tx.query(
        `INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
         SELECT id, $2, 1, now(), now() FROM unnest($1::text[]) AS id`,
        [ids, agents[0]],
      );
      await tx.query(
        `INSERT INTO problem_revisions (problem_id, revision, title, body, product, error_literal, author_id, created_at)
         SELECT id, 1, 'Bulk problem ' || id, 'body', 'bulk', 'ENOSPC ' || id, $2, now() FROM unnest($1::text[]) AS id`,
        [ids, agents[0]],
      );
    });
    await searchDocumentsCaughtUp(pool);
    const r = await pool.query(`SELECT count(*)::int AS n FROM search_documents WHERE id = ANY($1::text[])`, [ids]);
    expect(r.rows[0].n).toBe(40);
  });
});

/** A match query for `literal`'s whole key alone, at `level`; `over` sets the rest. */
function literalQuery(literal: string, level: MatchQuery['level'], over: Partial<MatchQuery> = {}): MatchQuery {
  const needle = normalizeLiteral(literal);
  const key = keyHash(needle);
  return {
    level,
    fallBack: false,
    keys: [key],
    keyWeights: [1],
    wholeKey: key,
    pattern: null,
    needle,
    pairs: [],
    terms: [],
    allTerms: null,
    prefilter: null,
    minTerms: 0,
    nearlyAll: null,
    signature: { hits: [], known: [] },
    signatureTitle: false,
    weights: RANKING_WEIGHTS,
    candidateCap: 200,
    strictCap: 200,
    filters: {},
    offset: 0,
    limit: 7,
    ...over,
  };
}

describe('search totals', () => {
  it('say when a candidate source stopped at its cap, and are then a lower bound', async () => {
    const literal = `Error: totals-${newId('problem')} cannot be counted past the cap`;
    for (let i = 0; i < 3; i++) await createProblem(pool, { literal });
    await searchDocumentsCaughtUp(pool);
    const query = (candidateCap: number) =>
      literalQuery(literal, KIND_RANK.exact, { candidateCap, strictCap: candidateCap });
    const all = await findMatchingDocuments(pool, query(5));
    expect([all.total, all.totalExact, all.rows.length]).toEqual([3, true, 3]);
    const capped = await findMatchingDocuments(pool, query(2));
    expect([capped.total, capped.totalExact, capped.rows.length]).toEqual([2, false, 2]);
    const newest = await listNewestDocuments(pool, {}, 0, 7);
    expect(newest.totalExact).toBe(newest.total < NEWEST_COUNT_CAP);
  });
});

describe('the exact source', () => {
  it('reads the records whose literal is the query before those titled so, up to its cap', async () => {
    const text = `Error: literal-first-${newId('problem')} refused by the server`;
    // Titled as the query (lower row positions, read first by the GIN index alone), then two whose literal it is.
    const titled: string[] = [];
    for (let i = 0; i < 3; i++)
      titled.push(await createProblem(pool, { title: text, literal: `Other failure ${i} of the server` }));
    const literal: string[] = [];
    for (let i = 0; i < 2; i++) literal.push(await createProblem(pool, { literal: text }));
    await searchDocumentsCaughtUp(pool);
    const query = (strictCap: number, over: Partial<MatchQuery> = {}) =>
      literalQuery(text, KIND_RANK.exact, { strictCap, ...over });
    const capped = await findMatchingDocuments(pool, query(2));
    expect(capped.rows.map((r) => r.id).sort()).toEqual([...literal].sort());
    expect(capped.rows.every((r) => r.literal_equal)).toBe(true);
    expect(capped.totalExact).toBe(false);
    // Room for all: the titled ones too, each once.
    const all = await findMatchingDocuments(pool, query(10));
    expect(all.rows.map((r) => r.id).sort()).toEqual([...titled, ...literal].sort());
    // A filter reads the GIN index alone, still capped.
    const filtered = await findMatchingDocuments(pool, query(2, { filters: { product: 'node-postgres' } }));
    expect([filtered.rows.length, filtered.totalExact]).toEqual([2, false]);
    const filteredAll = await findMatchingDocuments(pool, query(10, { filters: { product: 'node-postgres' } }));
    expect(filteredAll.rows.map((r) => r.id).sort()).toEqual([...titled, ...literal].sort());
  });

  it('leaves the substring source unread once records equal to the whole query fill its cap', async () => {
    const text = `Error: whole-first-${newId('problem')} refused by the server`;
    // Contains the query in a longer literal (a substring match only), written first: a substring source
    // read in table order would meet it before the records equal to the query.
    const containing = await createProblem(pool, { literal: `${text} after the restart` });
    const equal: string[] = [];
    for (let i = 0; i < 2; i++) equal.push(await createProblem(pool, { literal: text }));
    await searchDocumentsCaughtUp(pool);
    const needle = normalizeLiteral(text);
    const query = (strictCap: number) =>
      literalQuery(text, KIND_RANK.substring, { pattern: likePattern(needle), pairs: pairKeys(needle), strictCap });
    const filled = await findMatchingDocuments(pool, query(2));
    expect(filled.rows.map((r) => r.id).sort()).toEqual([...equal].sort());
    expect([filled.total, filled.totalExact]).toEqual([2, false]);
    const room = await findMatchingDocuments(pool, query(5));
    expect(room.rows.map((r) => r.id).sort()).toEqual([...equal, containing].sort());
    expect(room.rows.at(-1)!.id).toBe(containing);
  });
});

describe('the substring source', () => {
  const substringQuery = (fragment: string, strictCap: number) => {
    const needle = normalizeLiteral(fragment);
    return literalQuery(fragment, KIND_RANK.substring, {
      keys: [],
      keyWeights: [],
      pattern: likePattern(needle),
      pairs: pairKeys(needle),
      strictCap,
    });
  };

  it('finds a fragment in every bucket of the pair keys, and stops at its cap', async () => {
    const tag = newId('problem').slice(-12);
    const ids: string[] = [];
    // Enough records that every one of the 16 buckets (a hash of the id) holds some.
    for (let i = 0; i < 60; i++)
      ids.push(await createProblem(pool, { literal: `Error: bucketed ${tag} fragment number ${i} went away` }));
    await searchDocumentsCaughtUp(pool);
    const buckets = await pool.query<{ n: number }>(
      'SELECT count(DISTINCT ak_search_pair_bucket(id))::int AS n FROM search_documents WHERE id = ANY($1::text[])',
      [ids],
    );
    expect(buckets.rows[0]!.n).toBeGreaterThan(8);
    const all = await findMatchingDocuments(pool, { ...substringQuery(`bucketed ${tag} fragment`, 100), limit: 100 });
    expect(all.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect([all.total, all.totalExact]).toEqual([60, true]);
    const capped = await findMatchingDocuments(pool, substringQuery(`bucketed ${tag} fragment`, 10));
    expect([capped.total, capped.totalExact]).toEqual([10, false]);
    expect(capped.rows.every((r) => ids.includes(r.id) && r.kind === KIND_RANK.substring)).toBe(true);
  });

  it('keeps the record whose literal is the query first when its fragment fills the cap', async () => {
    const tag = newId('problem').slice(-12);
    const literal = `Error: capped ${tag} read refused by the upstream`;
    // More records containing the query in a longer literal than the substring source reads.
    for (let i = 0; i < STRICT_CANDIDATE_CAP + 10; i++)
      await createProblem(pool, { literal: `${literal} after restart ${i}` });
    const equal = await createProblem(pool, { literal });
    await searchDocumentsCaughtUp(pool);
    const result = await runSearch(pool, SearchParamsSchema.parse({ q: literal, mode: 'auto' }));
    expect(result.items[0]!.id).toBe(equal);
    expect(result.items[0]!.match.kind).toBe('exact');
    expect(result.items.slice(1).every((item) => item.match.kind === 'substring')).toBe(true);
    expect(result.coverage.total_exact).toBe(false);
  });

  it('finds the one record holding a fragment whose longest words many records share', async () => {
    const tag = newId('problem').slice(-12);
    const shared: string[] = [];
    for (let i = 0; i < 30; i++)
      shared.push(
        await createProblem(pool, { literal: `QueuePool overflowing ${tag} limit of size ${i + 100} reached` }),
      );
    const one = await createProblem(pool, { literal: `QueuePool overflowing ${tag} limit of size 71 reached` });
    await searchDocumentsCaughtUp(pool);
    await pool.query('ANALYZE search_documents');
    const found = await findMatchingDocuments(pool, substringQuery(`overflowing ${tag} limit of size 71 reached`, 50));
    expect(found.rows.map((r) => r.id)).toEqual([one]);
    expect(found.totalExact).toBe(true);
    expect(shared).not.toContain(one);
  });
});

describe('migration 000003', () => {
  it('indexes the records committed before it', async () => {
    const name = `ak_test_${process.ppid}_backfill_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const db = new pg.Client({ connectionString: databaseUrl(name) });
    try {
      await db.connect();
      for (const file of ['000001.sql', '000002.sql']) {
        await db.query(await readFile(new URL(`../../db/migrations/${file}`, import.meta.url), 'utf8'));
      }
      await db.query(`INSERT INTO identities (id, kind, handle) VALUES ('agt_1', 'pseudonymous', 'old')`);
      await db.query(`INSERT INTO problems VALUES ('prb_1', 'agt_1', 1, 'open', now(), now())`);
      await db.query(`INSERT INTO problem_revisions (problem_id, revision, title, body, product, error_literal, author_id, created_at)
                      VALUES ('prb_1', 1, 'Old problem', 'b', 'p', 'ENOSPC', 'agt_1', now())`);
      await db.query(`INSERT INTO solutions VALUES ('sol_1', 'prb_1', 'agt_1', 1, 'active', now(), now())`);
      await db.query(
        `INSERT INTO solution_revisions VALUES ('sol_1', 1, 'Raise the watcher limit', null, null, 'agt_1', now())`,
      );
      await db.query(`INSERT INTO outcomes VALUES ('out_1', 'sol_1', 1, 'agt_1', 'worked', null, '{}', now())`);
      await db.query(`INSERT INTO discussions (id, author_id, title, body, created_at, updated_at)
                      VALUES ('dsc_1', 'agt_1', 'Old talk', 'b', now(), now())`);
      await db.query(await readFile(new URL('../../db/migrations/000003.sql', import.meta.url), 'utf8'));
      const r = await db.query('SELECT id, worked FROM search_documents ORDER BY id');
      expect(r.rows).toEqual([
        { id: 'dsc_1', worked: 0 },
        { id: 'prb_1', worked: 1 },
        { id: 'sol_1', worked: 1 },
      ]);
    } finally {
      await db.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
