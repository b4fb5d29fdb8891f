/**
 * SQL for duplicate refusal at write time (docs/api.md, Decisions):
 * a problem with the same normalized error literal and product as an
 * existing one, or a solution with the same normalized body as another on
 * the same problem. Both run inside the commit transaction after
 * `lockDuplicateKey`, so two concurrent writes of the same record cannot
 * both pass the check: the second waits for the first to commit, and its
 * next statement (READ COMMITTED) sees the first one's rows.
 */
import type { Queryable } from '../pool.ts';
import { REVISION_COLUMNS, type ProblemContent } from './problems.ts';

/** Advisory lock class of duplicate checks (000003.sql uses 8150003 for search families). */
const DUPLICATE_LOCK_CLASS = 8150010;

/** Serializes the writes that could duplicate each other: same key, one at a time, until commit. */
export async function lockDuplicateKey(db: Queryable, key: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [DUPLICATE_LOCK_CLASS, key]);
}

/** The oldest solution of `problemId` whose current body normalizes to the text whose MD5 is `bodyKey`. */
export async function findSolutionByBody(db: Queryable, problemId: string, bodyKey: string): Promise<string | null> {
  const r = await db.query<{ id: string }>(
    `SELECT s.id
       FROM solutions s JOIN solution_revisions r ON r.solution_id = s.id AND r.revision = s.current_revision
      WHERE s.problem_id = $1::text AND md5(ak_search_normalize(r.body)) = $2::text
      ORDER BY s.created_at, s.id LIMIT 1`,
    [problemId, bodyKey],
  );
  return r.rows[0]?.id ?? null;
}

/** What a new problem's duplicate is looked up by (operations/duplicates.ts): the lock's key, the literal's MD5, the product. */
export interface ProblemDuplicateKey {
  lockKey: string;
  literalKey: string;
  product: string;
}

/** A new problem to insert with its first revision; `duplicate` null: it can have no duplicate (no literal). */
export interface NewProblem {
  id: string;
  authorId: string;
  at: Date;
  content: ProblemContent;
  duplicate: ProblemDuplicateKey | null;
}

/**
 * New problems and their first revisions, in one statement with the
 * duplicate check of each before them. Each check takes the duplicate lock
 * of its `lockKey` (as `lockDuplicateKey`), in the order given, then finds
 * the oldest problem whose current error literal normalizes to the text
 * whose MD5 is `literalKey`, with the same product ignoring ASCII case and
 * surrounding space; it runs in one function (migration 000020 says why)
 * whose look-up has a snapshot of its own, taken after the lock, so a
 * concurrent write of the same key is seen. A problem is inserted only when
 * its check finds none. Lock keys must differ from each other: a look-up
 * cannot be relied on to see a row the same statement inserts. Returns, in
 * order, the existing problem's id (that one not inserted), or null when the
 * problem was created: one round trip for all of them, where each problem's
 * check and insert were one, and the statement's triggers run once.
 */
export async function insertProblemsUnlessDuplicate(
  db: Queryable,
  problems: readonly NewProblem[],
): Promise<(string | null)[]> {
  const column = <T>(pick: (p: NewProblem) => T) => problems.map(pick);
  const r = await db.query<{ existing: string | null }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::timestamptz[], $10::text[], $11::text[], $12::text[])
              WITH ORDINALITY AS p(id, title, body, product, error_literal, environment, tags, author_id, created_at,
                                   lock_key, literal_key, product_key, ord)),
     duplicate AS MATERIALIZED (
       SELECT ord, CASE WHEN lock_key IS NOT NULL
                   THEN ak_lock_and_find_duplicate_problem($13::int, lock_key, literal_key, product_key) END AS existing
         FROM input ORDER BY ord),
     created AS (SELECT input.* FROM input JOIN duplicate USING (ord) WHERE duplicate.existing IS NULL),
     head AS (
       INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
       SELECT id, author_id, 1, created_at, created_at FROM created ORDER BY ord
       RETURNING id),
     revision AS (
       INSERT INTO problem_revisions (${REVISION_COLUMNS})
       SELECT c.id, 1, c.title, c.body, c.product, c.error_literal, c.environment::jsonb,
              ARRAY(SELECT jsonb_array_elements_text(c.tags::jsonb)), c.author_id, c.created_at
         FROM head JOIN created c USING (id) ORDER BY c.ord)
     SELECT existing FROM duplicate ORDER BY ord`,
    [
      column((p) => p.id),
      column((p) => p.content.title),
      column((p) => p.content.body),
      column((p) => p.content.product),
      column((p) => p.content.error_literal),
      column((p) => JSON.stringify(p.content.environment)),
      column((p) => JSON.stringify(p.content.tags)),
      column((p) => p.authorId),
      column((p) => p.at),
      column((p) => p.duplicate?.lockKey ?? null),
      column((p) => p.duplicate?.literalKey ?? null),
      column((p) => p.duplicate?.product ?? null),
      DUPLICATE_LOCK_CLASS,
    ],
  );
  return r.rows.map((row) => row.existing);
}
