/**
 * The statements of the worker's search catch-up (db/migrations/000040.sql):
 * take the noted changes, lock and read what their documents are made of,
 * write the documents the worker built. The building itself, normalization
 * and keys, is database-search/search-catch-up.ts's.
 */
import type { Queryable } from '../pool.ts';

export interface NotedChange {
  kind: 'family' | 'solution' | 'signals' | 'discussion';
  family: string;
  solution: string | null;
  /** When the change was noted, epoch milliseconds. */
  noted: number;
}

/** Families fall into this many slices (ak_search_slice, db/migrations/000041.sql). */
export const SEARCH_SLICES = 8;

/** The families of the slices `index`, `index + of`, `index + 2 * of`…: one of `of` bulk catch-ups running side by side. */
export interface SliceShare {
  of: number;
  index: number;
  /**
   * The last noted row this share took, advanced by each take: the next reads the rows after it, not
   * through the index entries of the rows taken before, dead until a vacuum (a million in a bulk load).
   */
  after?: string;
}

/**
 * Takes (deletes) up to `maxRows` noted changes, the oldest first, skipping rows another catch-up
 * holds; in the caller's transaction, so a catch-up that fails leaves them for the next. With `share`,
 * only changes of the families of its slices.
 */
export async function takeNotedChanges(tx: Queryable, maxRows: number, share?: SliceShare): Promise<NotedChange[]> {
  if (!share) {
    const r = await tx.query<NotedChange>(
      `WITH gone AS (
         DELETE FROM search_pending
          WHERE id IN (SELECT id FROM search_pending ORDER BY id LIMIT $1::int FOR UPDATE SKIP LOCKED)
         RETURNING id, kind, family, solution, queued_at)
       SELECT kind, family, solution, extract(epoch FROM queued_at)::float8 * 1000 AS noted FROM gone ORDER BY id`,
      [maxRows],
    );
    return r.rows;
  }
  // The next `of` times `maxRows` rows in order, then this share's of them: read through the primary key
  // and stopping there. A filter on the slice alone, which the planner cannot estimate, planned as a
  // sort of every row still waiting, for every batch.
  const r = await tx.query<NotedChange & { id: string }>(
    `WITH gone AS (
       DELETE FROM search_pending
        WHERE id IN (SELECT p.id FROM search_pending p
                      WHERE p.id IN (SELECT id FROM search_pending WHERE id > $4::bigint ORDER BY id LIMIT $1::int * $2::int)
                        AND ak_search_slice(p.family) % $2::int = $3::int
                      FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, family, solution, queued_at)
     SELECT id::text, kind, family, solution, extract(epoch FROM queued_at)::float8 * 1000 AS noted FROM gone ORDER BY id`,
    [maxRows, share.of, share.index, share.after ?? '0'],
  );
  if (r.rows.length > 0) share.after = r.rows.at(-1)!.id;
  return r.rows.map(({ id: _, ...row }) => row);
}

/** What a batch refreshes, each kind as the catch-up of 000021.sql splits them. */
export interface RefreshSets {
  /** Problem families refreshed whole: the problem and every solution. */
  families: string[];
  /** Problem families of which only `onlySolutions` are refreshed. */
  solutionFamilies: string[];
  onlySolutions: string[];
  /** Families whose outcome counts alone changed. */
  signalFamilies: string[];
  discussions: string[];
}

/** One row of ak_search_document_sources: a problem (its current revision), a solution or a discussion. */
export interface DocumentSource {
  kind: 'problem' | 'solution' | 'discussion';
  id: string;
  family: string;
  title: string | null;
  /** The error literal, '' when none (problems only). */
  literal: string | null;
  has_literal: boolean | null;
  /** The text the body part of the document is normalized from (already cut to its first 8,000 characters). */
  body: string;
  /** Product and tags, for a problem's own document. */
  extra: string | null;
  product: string | null;
  /** Null for a problem read only for its solutions' documents. */
  status: string | null;
  snippet: string | null;
  created_at: string;
  updated_at: string;
}

/** Locks every family of the batch (sorted, ak_search_lock) and reads their sources in a snapshot taken after it. */
export async function lockAndReadDocumentSources(tx: Queryable, sets: RefreshSets): Promise<DocumentSource[]> {
  const lock = [...new Set([...sets.families, ...sets.solutionFamilies, ...sets.signalFamilies, ...sets.discussions])];
  const r = await tx.query<DocumentSource>(
    'SELECT * FROM ak_search_document_sources($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])',
    [lock, sets.families, sets.solutionFamilies, sets.onlySolutions, sets.discussions],
  );
  return r.rows;
}

/** A search document as the worker builds it; the tsvectors are PostgreSQL's to make. */
export interface BuiltDocument {
  id: string;
  type: 'problem' | 'solution' | 'discussion';
  family: string;
  title: string;
  snippet: string;
  product: string | null;
  status: string;
  text_norm: string;
  exact_keys: string[];
  literal_key: string | null;
  pair_keys: string[];
  created_at: string;
  updated_at: string;
}

/** Writes the batch's documents, removes those whose record is gone, and recounts the families' signals. */
export async function putDocuments(tx: Queryable, sets: RefreshSets, docs: BuiltDocument[]): Promise<void> {
  await tx.query(
    'SELECT ak_search_put_documents($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::json)',
    [
      sets.families,
      sets.solutionFamilies,
      sets.onlySolutions,
      sets.signalFamilies,
      sets.discussions,
      JSON.stringify(docs),
    ],
  );
}

/**
 * Drops the indexes of search_documents (but the primary key and the family index) when it holds no
 * document, for a bulk load to build them
 * after it (db/migrations/000041.sql). Returns how many it dropped.
 */
export async function deferSearchIndexes(db: Queryable): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT ak_search_defer_indexes() AS n');
  return r.rows[0]!.n;
}

/** The indexes a bulk load dropped and has not built again (a load that died in between leaves them). */
export async function deferredSearchIndexes(db: Queryable): Promise<string[]> {
  const r = await db.query<{ name: string }>('SELECT name FROM search_deferred_indexes ORDER BY name');
  return r.rows.map((row) => row.name);
}

/** Builds one deferred index again; false when another session already did. */
export async function restoreSearchIndex(db: Queryable, name: string): Promise<boolean> {
  const r = await db.query<{ built: boolean }>('SELECT ak_search_restore_index($1::text) AS built', [name]);
  return r.rows[0]!.built;
}
