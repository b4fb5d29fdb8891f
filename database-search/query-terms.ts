/**
 * The full-text terms of a query (`findQueryTerms`), remembered for the
 * queries seen last. What PostgreSQL's English configuration makes of a
 * text depends on that text alone, never on the records stored, so a
 * remembered answer is the answer; repeating it spares a search one round
 * trip to the database. Only the terms are kept, never results.
 */
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../db/pool.ts';
import { findQueryTerms } from '../db/queries/search.ts';

/** Queries remembered, the least recently used dropped first. */
export const QUERY_TERMS_CACHE_SIZE = 2000;

/** Longer texts (a whole pasted trace) are not kept: they seldom repeat, and each would hold memory. */
const MAX_CACHED_CHARS = 2000;

const cache = new LRUCache<string, readonly string[]>({ max: QUERY_TERMS_CACHE_SIZE });

export async function queryTerms(db: Queryable, message: string, max: number, options: { prepared?: boolean } = {}): Promise<string[]> {
  if (message.length > MAX_CACHED_CHARS) return findQueryTerms(db, message, max, options);
  const key = `${max}\u0000${message}`;
  const known = cache.get(key);
  if (known !== undefined) return [...known];
  const terms = await findQueryTerms(db, message, max, options);
  cache.set(key, Object.freeze([...terms]));
  return terms;
}
