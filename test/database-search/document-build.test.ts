/**
 * The worker builds search documents in TypeScript (database-search/
 * document-text.ts, search-catch-up.ts); the SQL refresh functions build
 * the same documents in PostgreSQL (bulk loads, ak_search_catch_up). Search
 * answers must not depend on which of the two indexed a record: every
 * column of every document is compared, for the evaluation corpus and for
 * records at the edges (no literal, a blank one, nullable parts missing,
 * bodies past the 8,000 characters and 40 lines a document keeps).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import { insertDiscussion } from '../../db/queries/discussions.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { insertOutcome } from '../../db/queries/outcomes.ts';
import { insertProblemWithFirstRevision } from '../../db/queries/problems.ts';
import { searchDocumentsCaughtUp } from '../../db/queries/search.ts';
import { insertSolution, insertSolutionRevision } from '../../db/queries/solutions.ts';
import { catchUpSearchDocumentsBuilt, catchUpSearchDocumentsIn } from '../../database-search/search-catch-up.ts';
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
    await insertProblemWithFirstRevision(db, {
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
    });
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
  it('equal, column for column, those the SQL refresh functions write', async () => {
    // The SQL catch-up (ak_search_catch_up) indexes what the writes noted.
    await searchDocumentsCaughtUp(pool);
    const bySql = await documents(families);
    expect(bySql.length).toBe(SHAPES.length + written.solutions.length + written.discussions.length);
    expect(bySql.every((d) => (d.pair_keys as string[]).length > 0)).toBe(true);

    // Rebuilt by the worker over the SQL ones: nothing changes, not even the stamp of a changed text.
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    await builtCaughtUp();
    expect(await documents(families)).toEqual(bySql);

    // Built by the worker from nothing, then by SQL over the worker's: the same documents.
    await pool.query('DELETE FROM search_documents WHERE family = ANY($1::text[])', [families]);
    await noteAll('family', written.problems);
    await noteAll('discussion', written.discussions);
    await builtCaughtUp();
    const built = await documents(families);
    expect(withoutXid(built)).toEqual(withoutXid(bySql));
    await pool.query('SELECT ak_search_refresh_families($1::text[]), ak_search_refresh_discussions($2::text[])', [
      written.problems,
      written.discussions,
    ]);
    expect(await documents(families)).toEqual(built);
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
    await pool.query('SELECT ak_search_refresh_families(ARRAY[$1::text])', [problemId]);
    expect(withoutXid(await documents([problemId!]))).toEqual(withoutXid(after));
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
});
