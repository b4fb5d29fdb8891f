/** SQL for problems and their revisions. */
import type { Queryable } from '../pool.ts';

export interface ProblemContent {
  title: string;
  body: string;
  product: string;
  error_literal: string | null;
  environment: Record<string, string>;
  tags: string[];
}

export interface ProblemHead {
  id: string;
  author_id: string;
  current_revision: number;
  status: 'open' | 'archived';
  created_at: Date;
  updated_at: Date;
}

export interface ProblemRevision extends ProblemContent {
  revision: number;
  author_id: string;
  created_at: Date;
}

export async function insertProblem(db: Queryable, p: { id: string; authorId: string; at: Date }): Promise<void> {
  await db.query(
    `INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
     VALUES ($1::text, $2::text, 1, $3::timestamptz, $3::timestamptz)`,
    [p.id, p.authorId, p.at],
  );
}

export async function insertProblemRevision(
  db: Queryable,
  r: { problemId: string; revision: number; authorId: string; at: Date; content: ProblemContent },
): Promise<void> {
  await db.query(INSERT_REVISION, revisionParams(r));
}

/** The columns of a revision, in `revisionParams`' order ($1 … $10). */
export const REVISION_COLUMNS =
  'problem_id, revision, title, body, product, error_literal, environment, tags, author_id, created_at';

const INSERT_REVISION = `INSERT INTO problem_revisions
       (problem_id, revision, title, body, product, error_literal, environment, tags, author_id, created_at)
     VALUES ($1::text, $2::int, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::text[], $9::text, $10::timestamptz)`;

export function revisionParams(r: {
  problemId: string;
  revision: number;
  authorId: string;
  at: Date;
  content: ProblemContent;
}): unknown[] {
  const c = r.content;
  return [
    r.problemId,
    r.revision,
    c.title,
    c.body,
    c.product,
    c.error_literal,
    JSON.stringify(c.environment),
    c.tags,
    r.authorId,
    r.at,
  ];
}

export async function setProblemRevision(db: Queryable, id: string, revision: number, at: Date): Promise<void> {
  await db.query(`UPDATE problems SET current_revision = $2::int, updated_at = $3::timestamptz WHERE id = $1::text`, [
    id,
    revision,
    at,
  ]);
}

/** The problem's head row; `forUpdate` locks it against concurrent edits. */
export async function findProblem(db: Queryable, id: string, forUpdate = false): Promise<ProblemHead | null> {
  const r = await db.query(
    `SELECT id, author_id, current_revision, status, created_at, updated_at FROM problems WHERE id = $1::text
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}

export async function findProblemRevision(
  db: Queryable,
  id: string,
  revision: number,
): Promise<ProblemRevision | null> {
  const r = await db.query(
    `SELECT revision, title, body, product, error_literal, environment, tags, author_id, created_at
       FROM problem_revisions WHERE problem_id = $1::text AND revision = $2::int`,
    [id, revision],
  );
  return r.rows[0] ?? null;
}

export async function listAllProblemIds(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>('SELECT id FROM problems ORDER BY id');
  return r.rows.map((row) => row.id);
}
