/**
 * Batch reads behind the read model's views (read-model/view-source.ts):
 * each statement answers many records at once (`= ANY($1)`, or a LATERAL
 * page per record), returning the same columns as the single-record query
 * beside it in problems.ts, solutions.ts, … plus the id it belongs to.
 */
import type { Queryable } from '../pool.ts';
import type { DiscussionRow, ReplyRow } from './discussions.ts';
import type { Contribution, Identity, Profile } from './identities.ts';
import type { OutcomeRow } from './outcomes.ts';
import type { ProblemHead, ProblemRevision } from './problems.ts';
import type { SolutionHead, SolutionRevision, SolutionSummary } from './solutions.ts';
import { SOLUTION_TEXT_START } from './collections.ts';

export async function findProblems(db: Queryable, ids: string[]): Promise<ProblemHead[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    'SELECT id, author_id, current_revision, status, created_at, updated_at FROM problems WHERE id = ANY($1::text[])',
    [ids],
  );
  return r.rows;
}

export async function findCurrentProblemRevisions(
  db: Queryable,
  ids: string[],
): Promise<(ProblemRevision & { problem_id: string })[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    `SELECT r.problem_id, r.revision, r.title, r.body, r.product, r.error_literal, r.environment, r.tags, r.author_id, r.created_at
       FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
      WHERE p.id = ANY($1::text[])`,
    [ids],
  );
  return r.rows;
}

/** The first `perProblem` solutions of each problem, oldest first (listSolutionsOfProblem's order). */
export async function listFirstSolutions(
  db: Queryable,
  problemIds: string[],
  perProblem: number,
): Promise<SolutionSummary[]> {
  if (problemIds.length === 0) return [];
  const r = await db.query(
    `SELECT s.* FROM unnest($1::text[]) AS q(problem_id)
       CROSS JOIN LATERAL (
         SELECT s.id, s.problem_id, s.author_id, s.status, s.current_revision, s.updated_at, r.body, r.applicability, r.limitations
           FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
          WHERE s.problem_id = q.problem_id ORDER BY s.id LIMIT $2::int) s
      ORDER BY s.problem_id, s.id`,
    [problemIds, perProblem],
  );
  return r.rows;
}

export async function findSolutions(db: Queryable, ids: string[]): Promise<SolutionHead[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    `SELECT id, problem_id, author_id, current_revision, status, created_at, updated_at
       FROM solutions WHERE id = ANY($1::text[])`,
    [ids],
  );
  return r.rows;
}

export async function findCurrentSolutionRevisions(
  db: Queryable,
  ids: string[],
): Promise<(SolutionRevision & { solution_id: string })[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    `SELECT r.solution_id, r.revision, r.body, r.applicability, r.limitations, r.author_id, r.created_at
       FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
      WHERE s.id = ANY($1::text[])`,
    [ids],
  );
  return r.rows;
}

/** The first `perSolution` outcomes of each solution, newest first (listOutcomes' order). */
export async function listFirstOutcomes(
  db: Queryable,
  solutionIds: string[],
  perSolution: number,
): Promise<(OutcomeRow & { solution_id: string })[]> {
  if (solutionIds.length === 0) return [];
  const r = await db.query(
    `SELECT o.* FROM unnest($1::text[]) AS q(solution_id)
       CROSS JOIN LATERAL (
         SELECT x.id, x.solution_id, x.solution_revision, x.identity_id, i.handle AS identity_handle, x.signal, x.note,
                x.environment, x.created_at
           FROM outcomes x LEFT JOIN identities i ON i.id = x.identity_id WHERE x.solution_id = q.solution_id
          ORDER BY x.created_at DESC, x.id DESC LIMIT $2::int) o
      ORDER BY o.solution_id, o.created_at DESC, o.id DESC`,
    [solutionIds, perSolution],
  );
  return r.rows;
}

export async function findDiscussions(db: Queryable, ids: string[]): Promise<DiscussionRow[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    `SELECT id, author_id, title, body, product, status, reply_count, created_at, updated_at
       FROM discussions WHERE id = ANY($1::text[])`,
    [ids],
  );
  return r.rows;
}

/** The first `perDiscussion` replies of each discussion, oldest first (listReplies' order). */
export async function listFirstReplies(
  db: Queryable,
  discussionIds: string[],
  perDiscussion: number,
): Promise<ReplyRow[]> {
  if (discussionIds.length === 0) return [];
  const r = await db.query(
    `SELECT p.* FROM unnest($1::text[]) AS q(discussion_id)
       CROSS JOIN LATERAL (
         SELECT x.id, x.discussion_id, x.author_id, i.handle AS author_handle, x.body, x.in_reply_to, x.created_at
           FROM replies x LEFT JOIN identities i ON i.id = x.author_id
          WHERE x.discussion_id = q.discussion_id ORDER BY x.id LIMIT $2::int) p
      ORDER BY p.discussion_id, p.id`,
    [discussionIds, perDiscussion],
  );
  return r.rows;
}

export async function findIdentities(db: Queryable, ids: string[]): Promise<Identity[]> {
  if (ids.length === 0) return [];
  const r = await db.query('SELECT id, kind, handle, display_name FROM identities WHERE id = ANY($1::text[])', [ids]);
  return r.rows;
}

export async function findProfiles(db: Queryable, ids: string[]): Promise<Profile[]> {
  if (ids.length === 0) return [];
  const r = await db.query(
    'SELECT id, kind, handle, display_name, bio, created_at FROM identities WHERE id = ANY($1::text[])',
    [ids],
  );
  return r.rows;
}

/** Each identity's most recent public contributions (listRecentContributions, per identity, and limited the same way). */
export async function listRecentContributionsOf(
  db: Queryable,
  identityIds: string[],
  limit: number,
): Promise<(Contribution & { identity_id: string })[]> {
  if (identityIds.length === 0) return [];
  const r = await db.query(
    `SELECT q.identity_id, c.* FROM unnest($1::text[]) AS q(identity_id)
       CROSS JOIN LATERAL (
         (SELECT 'problem' AS type, p.id, pr.title, NULL AS parent_id, NULL AS parent_title, NULL AS body_start,
                 p.created_at
            FROM (SELECT id, current_revision, created_at FROM problems
                   WHERE author_id = q.identity_id ORDER BY id DESC LIMIT $2::int) p
            JOIN problem_revisions pr ON pr.problem_id = p.id AND pr.revision = p.current_revision)
         UNION ALL
         (SELECT 'solution', s.id, NULL, s.problem_id, NULL, left(sr.body, ${SOLUTION_TEXT_START}), s.created_at
            FROM (SELECT id, problem_id, current_revision, created_at FROM solutions
                   WHERE author_id = q.identity_id ORDER BY id DESC LIMIT $2::int) s
            JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision)
         UNION ALL
         (SELECT 'discussion', d.id, d.title, NULL, NULL, NULL, d.created_at FROM discussions d
           WHERE d.author_id = q.identity_id ORDER BY d.id DESC LIMIT $2::int)
         UNION ALL
         (SELECT 'reply', r.id, NULL, r.discussion_id, d.title, NULL, r.created_at
            FROM (SELECT id, discussion_id, created_at FROM replies
                   WHERE author_id = q.identity_id ORDER BY id DESC LIMIT $2::int) r
            JOIN discussions d ON d.id = r.discussion_id)
         ORDER BY created_at DESC, id DESC LIMIT $2::int) c
      ORDER BY q.identity_id, c.created_at DESC, c.id DESC`,
    [identityIds, limit],
  );
  return r.rows;
}
