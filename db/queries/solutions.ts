/** SQL for solutions and their revisions. */
import type { Queryable } from '../pool.ts';

export interface SolutionContent {
  body: string;
  applicability: string | null;
  limitations: string | null;
}

export interface SolutionHead {
  id: string;
  problem_id: string;
  author_id: string;
  current_revision: number;
  status: 'active' | 'archived';
  created_at: Date;
  updated_at: Date;
}

export interface SolutionRevision extends SolutionContent {
  revision: number;
  author_id: string;
  created_at: Date;
}

export async function insertSolution(
  db: Queryable,
  s: { id: string; problemId: string; authorId: string; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO solutions (id, problem_id, author_id, current_revision, created_at, updated_at)
     VALUES ($1::text, $2::text, $3::text, 1, $4::timestamptz, $4::timestamptz)`,
    [s.id, s.problemId, s.authorId, s.at],
  );
}

export async function insertSolutionRevision(
  db: Queryable,
  r: { solutionId: string; revision: number; authorId: string; at: Date; content: SolutionContent },
): Promise<void> {
  await db.query(
    `INSERT INTO solution_revisions (solution_id, revision, body, applicability, limitations, author_id, created_at)
     VALUES ($1::text, $2::int, $3::text, $4::text, $5::text, $6::text, $7::timestamptz)`,
    [r.solutionId, r.revision, r.content.body, r.content.applicability, r.content.limitations, r.authorId, r.at],
  );
}

export async function setSolutionRevision(db: Queryable, id: string, revision: number, at: Date): Promise<void> {
  await db.query(`UPDATE solutions SET current_revision = $2::int, updated_at = $3::timestamptz WHERE id = $1::text`, [
    id,
    revision,
    at,
  ]);
}

export async function findSolution(db: Queryable, id: string, forUpdate = false): Promise<SolutionHead | null> {
  const r = await db.query(
    `SELECT id, problem_id, author_id, current_revision, status, created_at, updated_at
       FROM solutions WHERE id = $1::text ${forUpdate ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}

export async function findSolutionRevision(
  db: Queryable,
  id: string,
  revision: number,
): Promise<SolutionRevision | null> {
  const r = await db.query(
    `SELECT revision, body, applicability, limitations, author_id, created_at
       FROM solution_revisions WHERE solution_id = $1::text AND revision = $2::int`,
    [id, revision],
  );
  return r.rows[0] ?? null;
}

export interface SolutionSummary extends SolutionContent {
  id: string;
  problem_id: string;
  author_id: string;
  status: string;
  current_revision: number;
  updated_at: Date;
}

const SUMMARY_COLUMNS = `s.id, s.problem_id, s.author_id, s.status, s.current_revision, s.updated_at,
  r.body, r.applicability, r.limitations`;

/** One page of a problem's solutions, oldest first, plus one row for `has_more`. */
export async function listSolutionsOfProblem(
  db: Queryable,
  problemId: string,
  offset: number,
  limit: number,
): Promise<SolutionSummary[]> {
  const r = await db.query(
    `SELECT ${SUMMARY_COLUMNS}
       FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
      WHERE s.problem_id = $1::text ORDER BY s.id OFFSET $2::int LIMIT $3::int`,
    [problemId, offset, limit + 1],
  );
  return r.rows;
}

export async function listAllSolutionIds(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>('SELECT id FROM solutions ORDER BY id');
  return r.rows.map((row) => row.id);
}
