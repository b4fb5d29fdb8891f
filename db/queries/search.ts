/**
 * SQL for search over `search_documents` (db/migrations/000003.sql).
 *
 * Parameters the caller leaves out arrive as NULL, and every branch is
 * guarded by its parameters (`$11 >= 1 AND …`): node-postgres sends unnamed
 * statements, which PostgreSQL plans with the actual values, so the guards
 * fold to constants and unused branches and filters cost nothing.
 */
import type { Signal } from '../../core/schemas/fields.ts';
import type { Queryable } from '../pool.ts';

export type DocumentType = 'problem' | 'solution' | 'discussion';

export interface SearchFilters {
  type?: DocumentType;
  product?: string;
  status?: 'open' | 'archived' | 'active';
  signal?: Signal;
}

/** Match kinds as ranks: lower is stronger. */
export const KIND_RANK = { exact: 0, substring: 1, keywords: 2 } as const;
export type KindRank = (typeof KIND_RANK)[keyof typeof KIND_RANK];

export interface MatchQuery {
  /** The loosest kind admitted. */
  level: KindRank;
  /** MD5s of the query's exact keys (whole text and lines). */
  keys: string[];
  /** MD5 of the whole normalized query: matching it covers every token. */
  wholeKey: string;
  /** `%query%` with LIKE's wildcards escaped, or null when too short for trigrams. */
  pattern: string | null;
  /** The normalized query, for full text. */
  words: string;
  filters: SearchFilters;
  offset: number;
  limit: number;
}

export interface DocumentRow {
  id: string;
  type: DocumentType;
  title: string;
  snippet: string;
  product: string | null;
  status: string;
  kind: KindRank;
  coverage: number;
  worked: number;
  partially_worked: number;
  did_not_work: number;
}

export interface DocumentPage {
  total: number;
  byType: Record<DocumentType, number>;
  rows: DocumentRow[];
}

const FILTERS = `($1::text IS NULL OR d.type = $1::text)
  AND ($2::text IS NULL OR lower(d.product) = lower($2::text))
  AND ($3::text IS NULL OR d.status = $3::text)
  AND ($4::text IS NULL OR ($4::text = 'worked' AND d.worked > 0)
       OR ($4::text = 'partially_worked' AND d.partially_worked > 0) OR ($4::text = 'did_not_work' AND d.did_not_work > 0))`;

const TOTALS = `count(*)::int AS total,
  (count(*) FILTER (WHERE type = 'problem'))::int AS problems,
  (count(*) FILTER (WHERE type = 'solution'))::int AS solutions,
  (count(*) FILTER (WHERE type = 'discussion'))::int AS discussions`;

const COLUMNS = `id, type, title, snippet, product, status, kind, coverage, worked, partially_worked, did_not_work`;

interface PageRow extends Omit<DocumentRow, 'id'> {
  id: string | null;
  total: number;
  problems: number;
  solutions: number;
  discussions: number;
}

/** The page rows of a totals-LEFT-JOIN-page query: one row even when the page is empty. */
function toDocumentPage(rows: PageRow[]): DocumentPage {
  const head = rows[0]!;
  return {
    total: head.total,
    byType: { problem: head.problems, solution: head.solutions, discussion: head.discussions },
    rows: rows.filter((r) => r.id !== null).map(({ total: _t, problems: _p, solutions: _s, discussions: _d, ...row }) => ({
      ...row, id: row.id!, coverage: Number(row.coverage),
    })),
  };
}

function filterParams(f: SearchFilters): unknown[] {
  return [f.type ?? null, f.product ?? null, f.status ?? null, f.signal ?? null];
}

/**
 * One page of documents matching the query at `level` or stronger, each
 * with its strongest kind and its coverage (the share of the query's
 * full-text terms it holds; 1 when it holds the whole normalized query),
 * ranked by kind, coverage, signals (worked > partially > did not work) and
 * recency; with the totals over all matches.
 */
export async function findMatchingDocuments(db: Queryable, q: MatchQuery): Promise<DocumentPage> {
  const r = await db.query<PageRow>(
    `WITH terms AS (
       SELECT ARRAY(SELECT DISTINCT t FROM unnest(string_to_array(
                plainto_tsquery('english'::regconfig, $10::text)::text, ' & ')) AS t)::tsquery[] AS each
     ), hits AS (
       SELECT d.id, 0 AS kind, d.exact_keys && ARRAY[$8::text] AS whole
         FROM search_documents d WHERE d.exact_keys && $7::text[] AND ${FILTERS}
       UNION ALL
       SELECT d.id, 1, true
         FROM search_documents d
        WHERE $11::int >= 1 AND $9::text IS NOT NULL AND d.text_norm LIKE $9::text AND ${FILTERS}
       UNION ALL
       SELECT d.id, 2, false
         FROM search_documents d
        WHERE $11::int >= 2 AND numnode(plainto_tsquery('english'::regconfig, $10::text)) > 0
          AND d.tsv @@ replace(plainto_tsquery('english'::regconfig, $10::text)::text, ' & ', ' | ')::tsquery
          AND ${FILTERS}
     ), best AS (
       SELECT id, min(kind) AS kind, bool_or(whole) AS whole FROM hits GROUP BY id
     ), ranked AS (
       SELECT d.id, d.type, d.title, d.snippet, d.product, d.status, d.worked, d.partially_worked, d.did_not_work,
              d.updated_at, b.kind,
              CASE WHEN b.whole OR cardinality(t.each) = 0 THEN 1
                   ELSE (SELECT count(*) FROM unnest(t.each) AS term WHERE d.tsv @@ term)::float8 / cardinality(t.each)
              END AS coverage
         FROM best b JOIN search_documents d ON d.id = b.id CROSS JOIN terms t
     )
     SELECT totals.*, page.* FROM (SELECT ${TOTALS} FROM ranked) totals
     LEFT JOIN LATERAL (
       SELECT ${COLUMNS} FROM ranked
        ORDER BY kind, coverage DESC, worked + 0.5 * partially_worked - did_not_work DESC, updated_at DESC, id DESC
        OFFSET $5::int LIMIT $6::int
     ) page ON true`,
    [...filterParams(q.filters), q.offset, q.limit, q.keys, q.wholeKey, q.pattern, q.words, q.level],
  );
  return toDocumentPage(r.rows);
}

/** One page of all documents passing the filters, newest first: what an empty query lists. */
export async function listNewestDocuments(
  db: Queryable, filters: SearchFilters, offset: number, limit: number,
): Promise<DocumentPage> {
  const r = await db.query<PageRow>(
    `SELECT totals.*, page.* FROM (SELECT ${TOTALS} FROM search_documents d WHERE ${FILTERS}) totals
     LEFT JOIN LATERAL (
       SELECT d.id, d.type, d.title, d.snippet, d.product, d.status, ${KIND_RANK.keywords} AS kind, 0 AS coverage,
              d.worked, d.partially_worked, d.did_not_work
         FROM search_documents d WHERE ${FILTERS}
        ORDER BY d.created_at DESC, d.id DESC OFFSET $5::int LIMIT $6::int
     ) page ON true`,
    [...filterParams(filters), offset, limit],
  );
  return toDocumentPage(r.rows);
}
