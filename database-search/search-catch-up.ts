/**
 * The worker's search catch-up (docs/design-writes.md): brings the search
 * documents up to date with a batch of the changes commits noted, building
 * each document's normalized text and keys here (document-text.ts) rather
 * than in PostgreSQL. It does what `ak_search_catch_up` (db/migrations/
 * 000021.sql) does, in one transaction: take the noted rows (skipping those
 * another catch-up holds), lock every family of the batch at once, read
 * them after the lock, write their documents, recount their signals. A
 * catch-up that fails rolls back and leaves its rows for the next.
 */
import type pg from 'pg';
import { withTransaction, type Queryable } from '../db/pool.ts';
import {
  lockAndReadDocumentSources,
  putDocuments,
  takeNotedChanges,
  type NotedChange,
  type RefreshSets,
} from '../db/queries/search-documents.ts';
import { buildDocuments } from './document-text.ts';

/** Splits a batch as ak_search_catch_up does: a family refreshed whole covers its solutions and signals. */
export function refreshSets(taken: NotedChange[]): RefreshSets {
  const families = new Set<string>();
  const discussions = new Set<string>();
  for (const t of taken) {
    if (t.kind === 'family') families.add(t.family);
    else if (t.kind === 'discussion') discussions.add(t.family);
  }
  const solutionFamilies = new Set<string>();
  const onlySolutions = new Set<string>();
  for (const t of taken) {
    if (t.kind !== 'solution' || families.has(t.family)) continue;
    solutionFamilies.add(t.family);
    if (t.solution !== null) onlySolutions.add(t.solution);
  }
  const signalFamilies = new Set<string>();
  for (const t of taken)
    if (t.kind === 'signals' && !families.has(t.family) && !solutionFamilies.has(t.family))
      signalFamilies.add(t.family);
  return {
    families: [...families],
    solutionFamilies: [...solutionFamilies],
    onlySolutions: [...onlySolutions],
    signalFamilies: [...signalFamilies],
    discussions: [...discussions],
  };
}

/**
 * Indexes up to `maxRows` noted changes, the oldest first, in the caller's transaction `tx`. Returns
 * when each was noted (epoch milliseconds), oldest first: an empty list when nothing was waiting.
 */
export async function catchUpSearchDocumentsIn(tx: Queryable, maxRows: number): Promise<number[]> {
  const taken = await takeNotedChanges(tx, maxRows);
  if (taken.length === 0) return [];
  const sets = refreshSets(taken);
  const sources = await lockAndReadDocumentSources(tx, sets);
  await putDocuments(tx, sets, buildDocuments(sources));
  return taken.map((t) => t.noted);
}

/** `catchUpSearchDocumentsIn`, in a transaction of its own: what the worker runs. */
export function catchUpSearchDocumentsBuilt(pool: pg.Pool, maxRows: number): Promise<number[]> {
  return withTransaction(pool, (tx) => catchUpSearchDocumentsIn(tx, maxRows));
}
