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

/** How often each query term occurs in a document's text and title, aligned with the terms, and the text's length in words. */
export interface TermCounts {
  inText: number[];
  inTitle: number[];
  length: number;
}

/**
 * The term counts of each document, for the second stage's BM25F
 * (database-search/rerank.ts), read from its stored `tsv` and `title_tsv`
 * (a few dozen lexemes each). `terms` are single-term tsquery texts
 * (`findQueryTerms`, 'postgr'), read back as lexemes; a handful of
 * documents at a time.
 */
export async function loadTermCounts(db: Queryable, documentIds: string[], terms: string[]): Promise<Map<string, TermCounts>> {
  if (documentIds.length === 0 || terms.length === 0) return new Map();
  const r = await db.query<{ id: string; in_text: number[]; in_title: number[]; length: number }>(
    `WITH term AS (SELECT (tsvector_to_array(t::tsvector))[1] AS lexeme, n FROM unnest($2::text[]) WITH ORDINALITY AS q(t, n))
     SELECT d.id,
            ARRAY(SELECT coalesce((SELECT cardinality(u.positions) FROM unnest(d.tsv) u WHERE u.lexeme = term.lexeme), 0)
                    FROM term ORDER BY term.n) AS in_text,
            ARRAY(SELECT coalesce((SELECT cardinality(u.positions) FROM unnest(d.title_tsv) u WHERE u.lexeme = term.lexeme), 0)
                    FROM term ORDER BY term.n) AS in_title,
            (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(d.tsv) u)::int AS length
       FROM search_documents d WHERE d.id = ANY($1::text[])`,
    [documentIds, terms],
  );
  return new Map(r.rows.map((row) => [row.id, { inText: row.in_text, inTitle: row.in_title, length: row.length }]));
}

/**
 * The share of all search documents holding each term, aligned with
 * `terms`, from the planner's statistics on `tsv` (the ~1,000 most common
 * lexemes and their frequencies, which ANALYZE and autovacuum keep): no
 * scan, one catalog row. A term not among them is rarer than the least of
 * them and gets half its frequency, as the planner estimates it. Null while
 * the table has no statistics yet (never analyzed).
 */
export async function loadTermShares(db: Queryable, terms: string[]): Promise<number[] | null> {
  if (terms.length === 0) return null;
  const r = await db.query<{ shares: number[] }>(
    `SELECT ARRAY(SELECT coalesce(s.freqs[array_position(s.elems, (tsvector_to_array(q.t::tsvector))[1])],
                                  s.freqs[cardinality(s.elems) + 1] / 2)
                    FROM unnest($1::text[]) WITH ORDINALITY AS q(t, n) ORDER BY q.n) AS shares
       FROM (SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
               FROM pg_stats
              WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'tsv'
                AND most_common_elems IS NOT NULL) s`,
    [terms],
  );
  const shares = r.rows[0]?.shares.map(Number);
  return shares && shares.every((share) => share > 0 && share <= 1) ? shares : null;
}
