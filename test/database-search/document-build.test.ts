/**
 * Search documents have one builder, in TypeScript (database-search/
 * document-text.ts, search-catch-up.ts), run by the worker and by bulk
 * loads alike. Each column it writes is held here to what PostgreSQL's own
 * implementation of the same rules makes of the same records
 * (ak_search_normalize, ak_search_keys, ak_search_pair_keys, to_tsvector;
 * test/database-search/normalize-sql.test.ts holds the two normalizations
 * to each other), for the evaluation corpus and for records at the edges (no
 * literal, a blank one, nullable parts missing, bodies past the 8,000
 * characters and 40 lines a document keeps).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import { insertDiscussion } from '../../db/queries/discussions.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { insertProblemsUnlessDuplicate } from '../../db/queries/duplicates.ts';
import { insertSolution, insertSolutionRevision } from '../../db/queries/solutions.ts';
import {
  catchUpSearchDocumentsBuilt,
  catchUpSearchDocumentsIn,
  searchDocumentsCaughtUp,
} from '../../database-search/search-catch-up.ts';
import { finishBulkLoad, prepareBulkLoad } from '../../operations/bulk-load.ts';
import { eventually } from '../helpers/client.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';
import { EVAL_CASES, EVAL_DISTRACTORS } from './eval-cases.ts';

let pool: pg.Pool;
useDatabaseClone(4, (clone) => (pool = clone.pool));
const agents = [newId('agent'), newId('agent'), newId('agent'), newId('agent')];

/** Past the 8,000 characters a body is cut to, with a character outside the BMP across the cut. */
const LONG_BODY = `${'Steps: start the dev server; it stops. '.repeat(205)}😀😀 tail /home/a/b.js:12 ${'x '.repeat(50)}`;
/** More lines than the 40 a body's exact keys come from; later lines hold key lines of their own. */
const MANY_LINES = Array.from({ length: 60 }, (_, i) => `line ${i}: connection reset by peer number ${i}`).join('\n');

interface Shape {
  title: string;
  literal: string | null;
  body: string;
  product: string;
  tags: string[];
  solutions: Array<{ body: string; applicability: string | null; limitations: string | null }>;
}

const SHAPES: Shape[] = [
  ...[...EVAL_CASES, ...EVAL_DISTRACTORS].map((c, i) => ({
    title: c.title,
    literal: c.literal,
    body: c.body,
    product: c.product,
    tags: i % 3 === 0 ? [] : ['build', `tag ${i}`],
    solutions: [
      {
        body: c.solution,
        applicability: i % 2 === 0 ? null : 'Linux hosts, Node 18+',
        limitations: i % 5 === 0 ? 'Not on Windows.\r\nOnly with\tdocker' : null,
      },
    ],
  })),
  { title: 'No literal at all', literal: null, body: 'Just a body.', product: 'Webpack ', tags: [], solutions: [] },
  { title: 'Blank literal', literal: '   ', body: '', product: 'x', tags: ['a'], solutions: [] },
  {
    title: 'FATAL: Café “quoted” title at 12:34:56 on 2024-01-01T00:00:00Z',
    literal: 'Error: ENOSPC\r\n  at /usr/lib/node.js:4:5\n\n\tcaused by: EACCES 0xdeadbeef',
    body: LONG_BODY,
    product: 'node',
    tags: ['ünïcode', 'ENOSPC'],
    solutions: [
      { body: LONG_BODY, applicability: 'a', limitations: 'b' },
      { body: MANY_LINES, applicability: null, limitations: null },
      { body: '', applicability: '', limitations: null },
    ],
  },
  { title: 'Many lines', literal: MANY_LINES, body: MANY_LINES, product: 'pg', tags: [], solutions: [] },
];

async function writeShapes(db: Queryable): Promise<{ problems: string[]; solutions: string[]; discussions: string[] }> {
  const problems: string[] = [];
  const solutions: string[] = [];
  const discussions: string[] = [];
  for (const [i, shape] of SHAPES.entries()) {
    const at = new Date(Date.UTC(2025, 0, 1, 0, 0, i, 123) + 0.456);
    const id = newId('problem');
    problems.push(id);
    await insertProblemsUnlessDuplicate(db, [
      {
        id,
        authorId: agents[0]!,
        at,
        content: {
          title: shape.title,
          body: shape.body,
          product: shape.product,
          error_literal: shape.literal,
          environment: {},
          tags: shape.tags,
        },
        duplicate: null,
      },
    ]);
    for (const content of shape.solutions) {
      const solutionId = newId('solution');
      solutions.push(solutionId);
      await insertSolution(db, { id: solutionId, problemId: id, authorId: agents[1]!, at });
      await insertSolutionRevision(db, { solutionId, revision: 1, authorId: agents[1]!, at, content });
    }
  }
  for (const [i, [title, body, product]] of [
    ['Waiting for Postgres in Compose', 'Healthchecks or wait-for-it?', 'docker'],
    ['No product here', LONG_BODY, null],
    ['ERROR: Many lines', MANY_LINES, 'Docker Compose'],
  ].entries()) {
    const id = newId('discussion');
    discussions.push(id);
    await insertDiscussion(db, {
      id,
      authorId: agents[0]!,
      title: title!,
      body: body!,
      product: product ?? null,
      at: new Date(1e12 + i),
    });
  }
  return { problems, solutions, discussions };
}

/** Every column of the documents, as text; the key arrays as stored (both builders write them in byte order). */
async function documents(ids: string[]) {
  const r = await pool.query(
    `SELECT id, type, family, title, snippet, product, status, text_norm, exact_keys, literal_key, pair_keys,
            tsv::text AS tsv, title_tsv::text AS title_tsv, worked, partially_worked, did_not_work,
            created_at::text AS created_at, updated_at::text AS updated_at, changed_xid::text AS changed_xid
       FROM search_documents WHERE family = ANY($1::text[]) ORDER BY id`,
    [ids],
  );
  return r.rows as Array<Record<string, unknown>>;
}

/**
 * The documents of the problem families and discussions `ids`, made in SQL from the records as they are
 * now: the reference the builder is held to (what the SQL refresh functions of db/migrations/000040.sql
 * wrote), with the columns of `documents` but the signal counts and the stamp.
 */
async function reference(ids: string[]) {
  const r = await pool.query(
    `WITH doc AS (
       SELECT part.*, concat_ws(E'\n', part.title_n, nullif(part.literal_n, ''), part.body_n, part.extra_n) AS text_norm
         FROM (
           WITH problem AS (
             SELECT p.id, p.status, p.created_at, p.updated_at, r.title, r.body, r.product, r.error_literal, r.tags,
                    ak_search_normalize(r.title) AS title_n,
                    ak_search_normalize(coalesce(r.error_literal, '')) AS literal_n,
                    btrim(coalesce(r.error_literal, '')) <> '' AS has_literal
               FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
              WHERE p.id = ANY($1::text[]))
           SELECT p.id, 'problem' AS type, p.id AS family, p.title,
                  ak_search_snippet(coalesce(nullif(btrim(p.error_literal), ''), p.body)) AS snippet,
                  p.product, p.status, p.title_n, p.literal_n,
                  CASE WHEN p.has_literal THEN md5(p.literal_n) END AS literal_key,
                  ak_search_normalize(left(p.body, 8000)) AS body_n,
                  ak_search_normalize(concat_ws(' ', p.product, array_to_string(p.tags, ' '))) AS extra_n,
                  p.created_at, p.updated_at
             FROM problem p
           UNION ALL
           SELECT s.id, 'solution', p.id, p.title, ak_search_snippet(sr.body), p.product, s.status, p.title_n,
                  p.literal_n, CASE WHEN p.has_literal THEN md5(p.literal_n) END,
                  ak_search_normalize(concat_ws(E'\n', left(sr.body, 8000), sr.applicability, sr.limitations)),
                  ak_search_normalize(p.product), s.created_at, s.updated_at
             FROM problem p
             JOIN solutions s ON s.problem_id = p.id
             JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
           UNION ALL
           SELECT x.id, 'discussion', x.id, x.title, ak_search_snippet(x.body), x.product, x.status,
                  ak_search_normalize(x.title), '', NULL, ak_search_normalize(left(x.body, 8000)),
                  CASE WHEN x.product IS NOT NULL THEN ak_search_normalize(x.product) END, x.created_at, x.updated_at
             FROM discussions x WHERE x.id = ANY($1::text[])
         ) part)
     SELECT id, type, family, title, snippet, product, status, text_norm,
            ARRAY(SELECT DISTINCT k COLLATE "C" FROM unnest(ak_search_keys(title_n) || ak_search_keys(literal_n)
                  || ak_search_keys(array_to_string((string_to_array(body_n, E'\n'))[1:40], E'\n'))) AS k ORDER BY 1)
              AS exact_keys,
            literal_key, ak_search_pair_keys(text_norm) AS pair_keys,
            to_tsvector('english'::regconfig, text_norm)::text AS tsv, to_tsvector('english'::regconfig, title)::text AS title_tsv,
            created_at::text AS created_at, updated_at::text AS updated_at
       FROM doc ORDER BY id`,
    [ids],
  );
  return r.rows as Array<Record<string, unknown>>;
}

/** A document without what `reference` leaves out. */
const builtColumns = (docs: Array<Record<string, unknown>>) =>
  docs.map(({ changed_xid: _, worked: _w, partially_worked: _p, did_not_work: _d, ...rest }) => rest);

/** changed_xid says which transaction last changed a document's text: the same text keeps it. */
const withoutXid = (docs: Array<Record<string, unknown>>) => docs.map(({ changed_xid: _, ...rest }) => rest);

/** Notes every family as changed, as the triggers would. */
async function noteAll(kind: 'family' | 'discussion', ids: string[]): Promise<void> {
  await pool.query(`INSERT INTO search_pending (kind, family) SELECT $1::text, id FROM unnest($2::text[]) AS id`, [
    kind,
    ids,
  ]);
}

async function builtCaughtUp(): Promise<void> {
  while ((await catchUpSearchDocumentsBuilt(pool, 50)).length > 0);
}

let written: Awaited<ReturnType<typeof writeShapes>>;
let families: string[];

beforeAll(async () => {
  for (const [i, id] of agents.entries())
    await insertIdentity(pool, { id, kind: 'pseudonymous', handle: `build-agent-${i}`, display_name: null });
  written = await withTransaction(pool, writeShapes);
  families = [...written.problems, ...written.discussions];
  // Some signals, so that the counts are compared too.
  for (const [i, solutionId] of written.solutions.slice(0, 12).entries())
    await insertOutcome(pool, {
      id: newId('outcome'),
      solutionId,
      solutionRevision: 1,
      identityId: agents[i % 2]!,
      signal: i % 3 === 0 ? 'worked' : i % 3 === 1 ? 'did_not_work' : 'partially_worked',
      note: null,
      environment: {},
      at: new Date(),
    });
});

describe("the worker's search documents", () => {
  it('equal, column for column, what the SQL implementation of the rules makes of the same records', async () => {
    // The bulk path: large batches on two connections, each over its own slices of the families.
    await searchDocumentsCaughtUp(pool, { connections: 2 });
    const built = await documents(families);
    expect(built.length).toBe(SHAPES.length + written.solutions.length + written.discussions.length);
    expect(built.every((d) => (d.pair_keys as string[]).length > 0)).toBe(true);
    expect(built.some((d) => (d.worked as number) > 0)).toBe(true);
    expect(builtColumns(built)).toEqual(await reference(families));

    // Built again by the worker's small batches over the same records: nothing changes, not even the stamp.
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    await builtCaughtUp();
    expect(await documents(families)).toEqual(built);

    // Built from nothing: the same documents.
    await pool.query('DELETE FROM search_documents WHERE family = ANY($1::text[])', [families]);
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    await builtCaughtUp();
    expect(withoutXid(await documents(families))).toEqual(withoutXid(built));
  });

  it('refresh a noted solution alone, and drop the documents of records gone', async () => {
    const [problemId] = written.problems.slice(-2);
    const solutionIds = (
      await pool.query<{ id: string }>('SELECT id FROM solutions WHERE problem_id = $1::text ORDER BY id', [problemId])
    ).rows.map((r) => r.id);
    const before = await documents([problemId!]);
    await pool.query(
      `UPDATE solution_revisions SET body = 'Raise fs.inotify.max_user_watches' WHERE solution_id = $1`,
      [solutionIds[0]],
    );
    await withTransaction(pool, async (tx) => {
      await tx.query('DELETE FROM solution_revisions WHERE solution_id = $1', [solutionIds[1]]);
      await tx.query('DELETE FROM solutions WHERE id = $1', [solutionIds[1]]);
    });
    await pool.query('DELETE FROM search_pending');
    await pool.query(
      `INSERT INTO search_pending (kind, family, solution) SELECT 'solution', $1::text, id FROM unnest($2::text[]) AS id`,
      [problemId, solutionIds.slice(0, 2)],
    );
    await builtCaughtUp();
    const after = await documents([problemId!]);
    const edited = after.find((d) => d.id === solutionIds[0])!;
    expect(edited.text_norm).toContain('raise fs.inotify.max_user_watches');
    expect(after.map((d) => d.id)).not.toContain(solutionIds[1]);
    // The problem and the solutions not noted are as they were.
    const untouched = (docs: typeof before) => docs.filter((d) => d.id !== solutionIds[0] && d.id !== solutionIds[1]);
    expect(untouched(after)).toEqual(untouched(before));
    // What SQL makes of the same family.
    expect(builtColumns(after)).toEqual(await reference([problemId!]));
  });

  it('keep pair keys with a text changed in place, as the stored-record redaction changes it', async () => {
    const id = written.discussions[0]!;
    await pool.query(`UPDATE search_documents SET text_norm = 'waiting for <redacted:password> here' WHERE id = $1`, [
      id,
    ]);
    const r = await pool.query('SELECT pair_keys FROM search_documents WHERE id = $1', [id]);
    expect(r.rows[0].pair_keys).toEqual(['ing for', 'ted pas', 'for red', 'ord her'].sort());
  });

  it('count reports committed while another catch-up holds the family, none lost', async () => {
    const solutionId = written.solutions[0]!;
    const problemId = (await pool.query('SELECT problem_id FROM solutions WHERE id = $1', [solutionId])).rows[0]
      .problem_id as string;
    await builtCaughtUp();
    const report = (identityId: string) =>
      insertOutcome(pool, {
        id: newId('outcome'),
        solutionId,
        solutionRevision: 1,
        identityId,
        signal: 'worked',
        note: null,
        environment: {},
        at: new Date(),
      });
    const counted = async () =>
      (
        await pool.query('SELECT worked FROM search_documents WHERE id = ANY($1::text[]) ORDER BY type', [
          [problemId, solutionId],
        ])
      ).rows.map((r) => r.worked as number);
    const [problemBefore, solutionBefore] = await counted();
    await report(agents[2]!);
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('BEGIN');
      expect(await catchUpSearchDocumentsIn(first, 100)).toHaveLength(1);
      await report(agents[3]!);
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
    expect(await counted()).toEqual([problemBefore! + 2, solutionBefore! + 2]);
  });

  it('of a bulk load into an empty service, with their indexes built after them', async () => {
    const gin = async () =>
      (
        await pool.query<{ name: string }>(
          `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'search_documents'
              AND indexname NOT IN ('search_documents_pkey', 'search_documents_family') ORDER BY 1`,
        )
      ).rows.map((r) => r.name);
    const indexes = await gin();
    // The GIN indexes of the text, tsvector, exact and pair keys, and the B-trees of the newest and the stamps.
    expect(indexes.length).toBeGreaterThanOrEqual(6);
    // With documents present, nothing is deferred: searches keep their indexes.
    expect(await prepareBulkLoad(pool)).toBe(0);
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    await builtCaughtUp();
    const before = await documents(families);

    await pool.query('DELETE FROM search_documents');
    expect(await prepareBulkLoad(pool)).toBe(indexes.length);
    expect(await gin()).toEqual([]);
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    const finish = await finishBulkLoad(pool, { champions: true });
    expect(finish.indexed).toBe(written.problems.length + written.discussions.length);
    expect(await gin()).toEqual(indexes);
    expect((await pool.query('SELECT count(*)::int AS n FROM search_deferred_indexes')).rows[0].n).toBe(0);
    expect(withoutXid(await documents(families))).toEqual(withoutXid(before));
    // The rebuilt indexes answer: a literal's key finds its problem.
    const r = await pool.query(
      `SELECT id FROM search_documents WHERE exact_keys && ARRAY[(SELECT literal_key FROM search_documents WHERE id = $1)]`,
      [written.problems.at(-1)],
    );
    expect(r.rows.map((row) => row.id)).toContain(written.problems.at(-1));
  });
});
