/**
 * SQL of the recent-records collections (`/api/problems`, `/problems`, …):
 * one page, newest first, optionally of one product, with one extra row to
 * tell `has_more`. Each row carries its author's handle (a LEFT JOIN, so a
 * page is one statement however many authors it shows).
 *
 * A product matches ignoring case (`lower()` on both sides), as people type
 * "Node-Postgres" and "node-postgres" for one thing. There is no index on
 * product: the scan walks the primary key newest first and stops after one
 * page, which is cheap while a product is common among recent records.
 */
import type { Queryable } from '../pool.ts';

/**
 * How much of a solution's text a list item carries: enough for its title
 * (the first line of words, site/lib/reading.ts) in every solution but one
 * whose text opens with that much code, and a few KB a page rather than
 * the whole texts (up to 20,000 characters each) of twenty solutions.
 */
export const SOLUTION_TEXT_START = 2000;

interface CollectionRowBase {
  id: string;
  author_id: string;
  author_handle: string | null;
  status: string;
  updated_at: Date;
}

export interface ProblemCollectionRow extends CollectionRowBase {
  title: string;
  product: string;
  current_revision: number;
}

export interface SolutionCollectionRow extends CollectionRowBase {
  problem_id: string;
  problem_title: string;
  product: string;
  /** The first SOLUTION_TEXT_START characters of the current revision's text. */
  body_start: string;
  current_revision: number;
}

export interface DiscussionCollectionRow extends CollectionRowBase {
  title: string;
  product: string | null;
  reply_count: number;
}

/** A page of a collection: `product` null for every product. */
export interface CollectionQuery {
  product: string | null;
  offset: number;
  limit: number;
}

export async function listProblemCollection(db: Queryable, q: CollectionQuery): Promise<ProblemCollectionRow[]> {
  const r = await db.query(
    `SELECT p.id, p.author_id, i.handle AS author_handle, p.status, p.updated_at, r.title, r.product, p.current_revision
       FROM problems p
       JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
       LEFT JOIN identities i ON i.id = p.author_id
      WHERE $1::text IS NULL OR lower(r.product) = lower($1::text)
      ORDER BY p.id DESC OFFSET $2::int LIMIT $3::int`,
    [q.product, q.offset, q.limit + 1],
  );
  return r.rows;
}

/** Solutions take their product from their problem's current revision, their text from their own. */
export async function listSolutionCollection(db: Queryable, q: CollectionQuery): Promise<SolutionCollectionRow[]> {
  const r = await db.query(
    `SELECT s.id, s.author_id, i.handle AS author_handle, s.status, s.updated_at, s.problem_id,
            pr.title AS problem_title, pr.product,
            left(sr.body, ${SOLUTION_TEXT_START}) AS body_start, s.current_revision
       FROM solutions s
       JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
       JOIN problems p ON p.id = s.problem_id
       JOIN problem_revisions pr ON pr.problem_id = p.id AND pr.revision = p.current_revision
       LEFT JOIN identities i ON i.id = s.author_id
      WHERE $1::text IS NULL OR lower(pr.product) = lower($1::text)
      ORDER BY s.id DESC OFFSET $2::int LIMIT $3::int`,
    [q.product, q.offset, q.limit + 1],
  );
  return r.rows;
}

export async function listDiscussionCollection(db: Queryable, q: CollectionQuery): Promise<DiscussionCollectionRow[]> {
  const r = await db.query(
    `SELECT d.id, d.author_id, i.handle AS author_handle, d.status, d.updated_at, d.title, d.product, d.reply_count
       FROM discussions d
       LEFT JOIN identities i ON i.id = d.author_id
      WHERE $1::text IS NULL OR lower(d.product) = lower($1::text)
      ORDER BY d.id DESC OFFSET $2::int LIMIT $3::int`,
    [q.product, q.offset, q.limit + 1],
  );
  return r.rows;
}

export interface ConfirmedSolutionRow {
  id: string;
  problem_id: string;
  problem_title: string;
  product: string;
  body: string;
  updated_at: Date;
}

/**
 * Undisputed solutions with independent confirmations, the strongest stored
 * bound first (the home page's "well-confirmed solutions"; readers apply
 * decay with their own clock, so callers re-rank what this returns).
 */
export async function listConfirmedSolutions(db: Queryable, limit: number): Promise<ConfirmedSolutionRow[]> {
  const r = await db.query(
    `SELECT s.id, s.problem_id, pr.title AS problem_title, pr.product, sr.body, s.updated_at
       FROM record_trust t
       JOIN solutions s ON s.id = t.record_id
       JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision
       JOIN problems p ON p.id = s.problem_id
       JOIN problem_revisions pr ON pr.problem_id = p.id AND pr.revision = p.current_revision
      WHERE t.record_type = 'solution' AND NOT t.disputed AND t.bound > 0 AND t.revision = s.current_revision
      ORDER BY t.bound DESC, s.id DESC LIMIT $1::int`,
    [limit],
  );
  return r.rows;
}
