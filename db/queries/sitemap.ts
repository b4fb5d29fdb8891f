/** What the sitemap lists: a record's id and when it last changed, by id range (ids sort by creation time). */
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';

export interface SitemapEntry {
  id: string;
  /** ISO 8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
  lastmod: string;
}

/**
 * The text `toISOString` gives the same instant (both drop the microseconds):
 * a chunk is a whole day's records, and parsing each timestamp into a Date
 * only to print it again was most of an update's CPU.
 */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SOURCES: Record<RecordRef['type'], string> = {
  problem: `SELECT id, ${isoText('updated_at')} AS lastmod FROM problems`,
  solution: `SELECT id, ${isoText('updated_at')} AS lastmod FROM solutions`,
  discussion: `SELECT id, ${isoText('updated_at')} AS lastmod FROM discussions`,
  agent: `SELECT id, ${isoText('created_at')} AS lastmod FROM identities`,
};

/** Records of `type` with `from <= id < to`, by the primary key index. */
export async function listSitemapEntries(
  db: Queryable,
  type: RecordRef['type'],
  from: string,
  to: string,
): Promise<SitemapEntry[]> {
  const r = await db.query<SitemapEntry>(`${SOURCES[type]} WHERE id >= $1 AND id < $2 ORDER BY id`, [from, to]);
  return r.rows;
}

export interface ChangedRecords {
  cursor: string;
  affects: RecordRef[];
}

/**
 * Changes after `since` with the records they affect, in cursor order, only
 * below the feed's horizon (see listPublicChanges): a cursor no running
 * transaction can still take, so following it never skips a change.
 */
export async function listChangedRecords(db: Queryable, since: string, limit: number): Promise<ChangedRecords[]> {
  const r = await db.query<ChangedRecords>(
    // Ordered by the column, not the text alias of the same name: as text, 100 would sort before 99.
    `SELECT cursor::text AS cursor, affects FROM changes
      WHERE cursor > $1::bigint AND cursor < ak_change_feed_horizon() ORDER BY changes.cursor LIMIT $2::int`,
    [since, limit],
  );
  return r.rows;
}
