/**
 * Bulk INSERTs for seeding: one statement per table, each taking whole
 * columns as arrays (`unnest`), so a batch of thousands of rows is one round
 * trip and one firing of each search trigger.
 */
import type { Signal } from '../../core/schemas/fields.ts';
import type { Queryable } from '../../db/pool.ts';

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
  errorLiteral: string;
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
    `INSERT INTO problem_revisions (problem_id, revision, title, body, product, error_literal, tags, author_id, created_at)
     SELECT id, 1, title, body, product, literal, ARRAY(SELECT jsonb_array_elements_text(tags)), author_id, at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[], $8::timestamptz[])
         AS t(id, title, body, product, literal, tags, author_id, at)`,
    [
      column(rows, 'id'),
      column(rows, 'title'),
      column(rows, 'body'),
      column(rows, 'product'),
      column(rows, 'errorLiteral'),
      rows.map((r) => JSON.stringify(r.tags)),
      column(rows, 'authorId'),
      column(rows, 'at'),
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
