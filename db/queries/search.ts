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
  /** The query's full-text terms (`findQueryTerms`), what coverage is the share of. */
  terms: string[];
  /** A tsquery every keyword match satisfies (keyword-query.ts), or null when the query has no terms. */
  prefilter: string | null;
  /** Terms a keyword match must hold. */
  minTerms: number;
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

/** What a candidate shows, read only for the rows of the page. */
const DOCUMENT_COLUMNS = `d.id, d.type, d.title, d.snippet, d.product, d.status, d.worked, d.partially_worked, d.did_not_work`;

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
 * The full-text terms of a normalized query, as single-term tsquery texts
 * ('postgr'): English stems, stop words dropped, each once, in the order
 * they first appear, at most `max`.
 */
export async function findQueryTerms(db: Queryable, words: string, max: number): Promise<string[]> {
  const r = await db.query<{ term: string }>(
    `SELECT term FROM unnest(string_to_array(plainto_tsquery('english'::regconfig, $1::text)::text, ' & '))
              WITH ORDINALITY AS t(term, n)
      WHERE term <> '' GROUP BY term ORDER BY min(n) LIMIT $2::int`,
    [words, max],
  );
  return r.rows.map((row) => row.term);
}

/**
 * Bounds each statement of the current transaction: a search that would
 * run longer is cancelled (SQLSTATE 57014) rather than hold a connection.
 */
export async function limitStatementTime(db: Queryable, ms: number): Promise<void> {
  await db.query(`SELECT set_config('statement_timeout', $1::text, true)`, [String(ms)]);
}

/**
 * One page of documents matching the query at `level` or stronger, each
 * with its strongest kind and its coverage (the share of the query's
 * full-text terms it holds; 1 when it holds the whole normalized query),
 * ranked by kind, coverage, signals (worked > partially > did not work) and
 * recency; with the totals over all matches.
 */
export async function findMatchingDocuments(db: Queryable, q: MatchQuery): Promise<DocumentPage> {
  // One pass: the indexes a level needs are OR-ed into one bitmap, and each
  // candidate is read once, where its kind, terms held and coverage are
  // computed. A record that contains the whole query holds all its terms
  // (but a last word cut short), so at the keywords level only records
  // holding all terms but one pay for LIKE, and the trigram index is asked
  // only for queries of under four terms, which "half of the terms" could
  // otherwise miss. Candidates stay narrow (no text) until the page is cut.
  const r = await db.query<PageRow>(
    `WITH matched AS MATERIALIZED (
       SELECT id, type, updated_at, score, kind,
              CASE WHEN kind = 1 OR whole OR cardinality($10::text[]) = 0 THEN 1
                   ELSE held::float8 / cardinality($10::text[]) END AS coverage
         FROM (
           SELECT d.id, d.type, d.updated_at,
                  d.worked + 0.5::float8 * d.partially_worked - d.did_not_work AS score,
                  held.n AS held,
                  CASE WHEN d.exact_keys && $7::text[] THEN 0
                       WHEN $9::text IS NOT NULL AND ($11::int = 1 OR held.n >= cardinality($10::text[]) - 1)
                            AND d.text_norm LIKE $9::text THEN 1
                       ELSE 2 END AS kind,
                  d.exact_keys && ARRAY[$8::text] AS whole
             FROM search_documents d
            -- A record equal to the whole query holds every term; only the others are counted.
            CROSS JOIN LATERAL (
              SELECT CASE WHEN d.exact_keys && ARRAY[$8::text] THEN cardinality($10::text[])
                          ELSE (SELECT count(*)::int FROM unnest($10::text[]::tsquery[]) AS term WHERE d.tsv @@ term)
                     END AS n) held
            WHERE (d.exact_keys && $7::text[]
                   OR ($9::text IS NOT NULL AND ($11::int = 1 OR ($11::int = 2 AND cardinality($10::text[]) < 4))
                       AND d.text_norm LIKE $9::text)
                   OR ($11::int = 2 AND $12::text IS NOT NULL AND d.tsv @@ $12::text::tsquery))
              AND ${FILTERS}
         ) candidate
        WHERE kind < 2 OR held >= $13::int
     )
     SELECT totals.*, page.kind, page.coverage, ${DOCUMENT_COLUMNS}
       FROM (SELECT ${TOTALS} FROM matched) totals
       LEFT JOIN LATERAL (
         SELECT id, kind, coverage, score, updated_at FROM matched
          ORDER BY kind, coverage DESC, score DESC, updated_at DESC, id DESC
          OFFSET $5::int LIMIT $6::int
       ) page ON true
       LEFT JOIN search_documents d ON d.id = page.id
      ORDER BY page.kind, page.coverage DESC, page.score DESC, page.updated_at DESC, page.id DESC`,
    [...filterParams(q.filters), q.offset, q.limit, q.keys, q.wholeKey, q.pattern, q.terms, q.level, q.prefilter, q.minTerms],
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
       SELECT ${KIND_RANK.keywords} AS kind, 0 AS coverage, ${DOCUMENT_COLUMNS}
         FROM search_documents d WHERE ${FILTERS}
        ORDER BY d.created_at DESC, d.id DESC OFFSET $5::int LIMIT $6::int
     ) page ON true`,
    [...filterParams(filters), offset, limit],
  );
  return toDocumentPage(r.rows);
}
