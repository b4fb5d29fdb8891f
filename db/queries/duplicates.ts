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
import { REVISION_COLUMNS, revisionParams, type ProblemContent } from './problems.ts';

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

/**
 * A new problem and its first revision, in one statement with the duplicate
 * check before them. The check takes the duplicate lock of `lockKey` (as
 * `lockDuplicateKey`), then finds the oldest problem whose current error
 * literal normalizes to the text whose MD5 is `literalKey`, with the same
 * product ignoring ASCII case and surrounding space; it runs in one function
 * (migration 000020 says why) whose look-up has a snapshot of its own, taken
 * after the lock, so a concurrent write of the same key is seen. The rows
 * are inserted only when it finds none. Returns the existing problem's id
 * (nothing inserted), or null when the problem was created: one round trip
 * where the check and the insert were two.
 */
export async function insertProblemUnlessDuplicate(
  db: Queryable,
  p: { id: string; authorId: string; at: Date; content: ProblemContent },
  duplicate: ProblemDuplicateKey,
): Promise<string | null> {
  const r = await db.query<{ id: string | null }>(
    `WITH duplicate AS MATERIALIZED (
       SELECT ak_lock_and_find_duplicate_problem($11::int, $12::text, $13::text, $14::text) AS id),
     head AS (
       INSERT INTO problems (id, author_id, current_revision, created_at, updated_at)
       SELECT $1::text, $9::text, 1, $10::timestamptz, $10::timestamptz FROM duplicate WHERE duplicate.id IS NULL
       RETURNING id),
     revision AS (
       INSERT INTO problem_revisions (${REVISION_COLUMNS})
       SELECT head.id, $2::int, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::text[], $9::text, $10::timestamptz
         FROM head)
     SELECT id FROM duplicate`,
    [
      ...revisionParams({ problemId: p.id, revision: 1, authorId: p.authorId, at: p.at, content: p.content }),
      DUPLICATE_LOCK_CLASS,
      duplicate.lockKey,
      duplicate.literalKey,
      duplicate.product,
    ],
  );
  return r.rows[0]?.id ?? null;
}
