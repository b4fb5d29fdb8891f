/**
 * The error literal of each search document's family head: a problem's own
 * current literal, and for a solution its problem's. The search re-ranks a
 * page's candidates by it (database-search/rerank.ts); search_documents
 * keeps only a 200-character snippet of it.
 */
import type { Queryable } from '../pool.ts';

/** Document id to its family's current error literal; documents without one (discussions, problems with none) are absent. */
export async function loadFamilyLiterals(db: Queryable, documentIds: string[]): Promise<Map<string, string>> {
  if (documentIds.length === 0) return new Map();
  const r = await db.query<{ id: string; literal: string }>(
    `SELECT d.id, r.error_literal AS literal
       FROM search_documents d
       JOIN problems p ON p.id = d.family
       JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
      WHERE d.id = ANY($1::text[]) AND r.error_literal IS NOT NULL AND btrim(r.error_literal) <> ''`,
    [documentIds],
  );
  return new Map(r.rows.map((row) => [row.id, row.literal]));
}

/** Which of the query's terms (1-based indexes into `terms`) a document holds, in all its text and in its title. */
export interface TermPresence {
  held: number[];
  inTitle: number[];
}

/**
 * The terms each document holds, for the second stage's term weights
 * (database-search/rerank.ts). `terms` are single-term tsquery texts
 * (`findQueryTerms`); a handful of documents at a time.
 */
export async function loadTermPresence(db: Queryable, documentIds: string[], terms: string[]): Promise<Map<string, TermPresence>> {
  if (documentIds.length === 0 || terms.length === 0) return new Map();
  const r = await db.query<{ id: string; held: number[]; in_title: number[] }>(
    `SELECT d.id,
            ARRAY(SELECT i FROM generate_subscripts($2::text[], 1) AS i WHERE d.tsv @@ ($2::text[])[i]::tsquery) AS held,
            ARRAY(SELECT i FROM generate_subscripts($2::text[], 1) AS i
                   WHERE to_tsvector('english'::regconfig, d.title) @@ ($2::text[])[i]::tsquery) AS in_title
       FROM search_documents d WHERE d.id = ANY($1::text[])`,
    [documentIds, terms],
  );
  return new Map(r.rows.map((row) => [row.id, { held: row.held, inTitle: row.in_title }]));
}
