/**
 * Record ids a page at a time, in id order (keyset pagination): what a full
 * rebuild walks, so it holds one page of ids rather than every id.
 */
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';

/** The table holding each kind's records (an agent's page is its identity). */
const TABLE: Record<RecordRef['type'], string> = {
  problem: 'problems',
  solution: 'solutions',
  discussion: 'discussions',
  agent: 'identities',
};

/** Up to `limit` ids of `type` after `after` ('' for the first page), in id order. */
export async function listRecordIdsAfter(
  db: Queryable,
  type: RecordRef['type'],
  after: string,
  limit: number,
): Promise<string[]> {
  const r = await db.query<{ id: string }>(
    `SELECT id FROM ${TABLE[type]} WHERE id > $1::text ORDER BY id LIMIT $2::int`,
    [after, limit],
  );
  return r.rows.map((row) => row.id);
}

/** How many records of `type` there are (for progress). */
export async function countRecords(db: Queryable, type: RecordRef['type']): Promise<number> {
  const r = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${TABLE[type]}`);
  return Number(r.rows[0]!.n);
}

/** Which of `ids` (all of kind `type`) exist. */
export async function existingRecordIds(db: Queryable, type: RecordRef['type'], ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await db.query<{ id: string }>(`SELECT id FROM ${TABLE[type]} WHERE id = ANY($1::text[])`, [ids]);
  return new Set(r.rows.map((row) => row.id));
}
