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

/** Advisory lock class of duplicate checks (000003.sql uses 8150003 for search families). */
const DUPLICATE_LOCK_CLASS = 8150010;

/** Serializes the writes that could duplicate each other: same key, one at a time, until commit. */
export async function lockDuplicateKey(db: Queryable, key: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [DUPLICATE_LOCK_CLASS, key]);
}

/**
 * Takes the duplicate lock of `lockKey` (as `lockDuplicateKey`), then finds
 * the oldest problem whose current error literal normalizes to the text whose
 * MD5 is `literalKey`, with the same product ignoring ASCII case and
 * surrounding space; null when there is none. Search documents hold the MD5
 * of every problem's normalized literal among their exact keys (GIN), which
 * finds the candidates; each is then checked against its literal itself.
 * One call (migration 000020 says why): the lock is taken before the
 * look-up's snapshot, so a concurrent write of the same key is seen.
 */
export async function lockAndFindProblemByLiteral(
  db: Queryable,
  lockKey: string,
  literalKey: string,
  product: string,
): Promise<string | null> {
  const r = await db.query<{ id: string | null }>(
    'SELECT ak_lock_and_find_duplicate_problem($1::int, $2::text, $3::text, $4::text) AS id',
    [DUPLICATE_LOCK_CLASS, lockKey, literalKey, product],
  );
  return r.rows[0]?.id ?? null;
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
