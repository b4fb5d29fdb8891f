/**
 * Bulk INSERTs for loading many records at once (the operator's import and
 * the benchmark seeder): one statement per table, each taking whole columns
 * as arrays (`unnest`), so a batch of thousands of rows is one round trip and
 * one firing of each search trigger. The rows are the ones the write
 * handlers (operations/) store, column for column.
 */
import type { Signal } from '../../core/schemas/fields.ts';
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';

export interface IdentityRow {
  id: string;
  handle: string;
}
export interface HeadRow {
  id: string;
  authorId: string;
  at: Date;
}
export interface ProblemRevisionRow extends HeadRow {
  title: string;
  body: string;
  product: string;
  errorLiteral: string | null;
  /** `{}` when absent, as a write stores it. */
  environment?: Record<string, unknown>;
  tags: string[];
}
export interface SolutionRow extends HeadRow {
  problemId: string;
}
export interface SolutionRevisionRow extends HeadRow {
  body: string;
  applicability: string | null;
  limitations: string | null;
}
export interface OutcomeRow {
  id: string;
  solutionId: string;
  identityId: string;
  signal: Signal;
  at: Date;
}
export interface DiscussionRow extends HeadRow {
  title: string;
  body: string;
  product: string | null;
}

const column = <R, K extends keyof R>(rows: R[], key: K) => rows.map((row) => row[key]);

export async function insertIdentityRows(db: Queryable, rows: IdentityRow[]): Promise<void> {
  await db.query(
    `INSERT INTO identities (id, kind, handle) SELECT id, 'pseudonymous', handle FROM unnest($1::text[], $2::text[]) AS t(id, handle)`,
    [column(rows, 'id'), column(rows, 'handle')],
  );
}

export async function insertProblemRows(db: Queryable, rows: HeadRow[]): Promise<void> {
  await db.query(
    `INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
     SELECT id, author_id, 1, at, at FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS t(id, author_id, at)`,
    [column(rows, 'id'), column(rows, 'authorId'), column(rows, 'at')],
  );
}

export async function insertProblemRevisionRows(db: Queryable, rows: ProblemRevisionRow[]): Promise<void> {
  await db.query(
    `INSERT INTO problem_revisions
       (problem_id, revision, title, body, product, error_literal, environment, tags, author_id, created_at)
     SELECT id, 1, title, body, product, literal, environment, ARRAY(SELECT jsonb_array_elements_text(tags)), author_id, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::timestamptz[],
                   $9::jsonb[])
         AS t(id, title, body, product, literal, tags, author_id, at, environment)`,
    [
      column(rows, 'id'),
      column(rows, 'title'),
      column(rows, 'body'),
      column(rows, 'product'),
      column(rows, 'errorLiteral'),
      rows.map((r) => JSON.stringify(r.tags)),
      column(rows, 'authorId'),
      column(rows, 'at'),
      rows.map((r) => JSON.stringify(r.environment ?? {})),
    ],
  );
}

export async function insertSolutionRows(db: Queryable, rows: SolutionRow[]): Promise<void> {
  await db.query(
    `INSERT INTO solutions (id, problem_id, author_id, current_revision, created_at, updated_at)
     SELECT id, problem_id, author_id, 1, at, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS t(id, problem_id, author_id, at)`,
    [column(rows, 'id'), column(rows, 'problemId'), column(rows, 'authorId'), column(rows, 'at')],
  );
}

export async function insertSolutionRevisionRows(db: Queryable, rows: SolutionRevisionRow[]): Promise<void> {
  await db.query(
    `INSERT INTO solution_revisions (solution_id, revision, body, applicability, limitations, author_id, created_at)
     SELECT id, 1, body, applicability, limitations, author_id, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
         AS t(id, body, applicability, limitations, author_id, at)`,
    [
      column(rows, 'id'),
      column(rows, 'body'),
      column(rows, 'applicability'),
      column(rows, 'limitations'),
      column(rows, 'authorId'),
      column(rows, 'at'),
    ],
  );
}

export async function insertOutcomeRows(db: Queryable, rows: OutcomeRow[]): Promise<void> {
  await db.query(
    `INSERT INTO outcomes (id, solution_id, solution_revision, identity_id, signal, created_at)
     SELECT id, solution_id, 1, identity_id, signal, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(id, solution_id, identity_id, signal, at)`,
    [
      column(rows, 'id'),
      column(rows, 'solutionId'),
      column(rows, 'identityId'),
      column(rows, 'signal'),
      column(rows, 'at'),
    ],
  );
}

export async function insertDiscussionRows(db: Queryable, rows: DiscussionRow[]): Promise<void> {
  await db.query(
    `INSERT INTO discussions (id, author_id, title, body, product, created_at, updated_at)
     SELECT id, author_id, title, body, product, at, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
         AS t(id, author_id, title, body, product, at)`,
    [
      column(rows, 'id'),
      column(rows, 'authorId'),
      column(rows, 'title'),
      column(rows, 'body'),
      column(rows, 'product'),
      column(rows, 'at'),
    ],
  );
}

/** One batch of records, heads before revisions and problems before their solutions (the foreign keys' order). */
export async function insertRecordBatch(
  db: Queryable,
  batch: {
    problems: ProblemRevisionRow[];
    solutions: (SolutionRow & SolutionRevisionRow)[];
    discussions: DiscussionRow[];
    outcomes?: OutcomeRow[];
  },
): Promise<void> {
  if (batch.problems.length) {
    await insertProblemRows(db, batch.problems);
    await insertProblemRevisionRows(db, batch.problems);
  }
  if (batch.solutions.length) {
    await insertSolutionRows(db, batch.solutions);
    await insertSolutionRevisionRows(db, batch.solutions);
  }
  if (batch.outcomes?.length) await insertOutcomeRows(db, batch.outcomes);
  if (batch.discussions.length) await insertDiscussionRows(db, batch.discussions);
}

export interface ChangeRow {
  kind: string;
  resourceType: RecordRef['type'];
  resourceId: string;
  /** 1 for a new problem or solution; null for a discussion (it has no revisions). */
  revision: number | null;
  affects: RecordRef[];
  at: Date;
}

/**
 * Most changes one transaction may append: a change's cursor is its
 * transaction's id times 256 plus its index (db/migrations/000006.sql).
 */
export const CHANGES_PER_TRANSACTION = 256;

/**
 * Appends the changes of a batch in one statement, the first of the
 * transaction: their cursors are the transaction's next cursor and the ones
 * after it, in row order, as appending them one by one would number them.
 * Returns the cursors in row order.
 */
export async function insertChangeRows(db: Queryable, rows: ChangeRow[]): Promise<string[]> {
  if (rows.length > CHANGES_PER_TRANSACTION)
    throw new Error(`a transaction may append at most ${CHANGES_PER_TRANSACTION} changes`);
  const r = await db.query<{ cursor: string }>(
    `WITH first AS (SELECT ak_next_change_cursor() AS cursor)
     INSERT INTO changes (cursor, kind, resource_type, resource_id, revision, affects, public, committed_at)
     SELECT first.cursor + n - 1, kind, resource_type, resource_id, revision, affects, true, at
       FROM first, unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::jsonb[], $6::timestamptz[])
         WITH ORDINALITY AS t(kind, resource_type, resource_id, revision, affects, at, n)
     ORDER BY n
     RETURNING cursor::text`,
    [
      column(rows, 'kind'),
      column(rows, 'resourceType'),
      column(rows, 'resourceId'),
      column(rows, 'revision'),
      rows.map((r) => JSON.stringify(r.affects)),
      column(rows, 'at'),
    ],
  );
  return r.rows.map((row) => row.cursor).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}
