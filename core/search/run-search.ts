/**
 * Search: normalizes the query, runs it at the modes asked for and shapes
 * the compact candidates of CONTRACT.md (Reads, Search). Used by both search
 * endpoints, and meant for the tool protocol too.
 *
 * - `exact`: the normalized query, one of its lines, or what is left of a
 *   line without up to 8 words at either end (a pasted log prefix, trailing
 *   detail) equals a record's normalized error literal or title, or one of
 *   their lines or of the first 40 lines of its body.
 * - `substring`: the normalized query occurs in the record's normalized text.
 * - `keywords`: the record holds at least half of the query's English
 *   full-text terms (two of two or more), of its first 16.
 * A mode admits its kind and every stronger one; each candidate reports the
 * strongest kind it satisfies. `auto` runs exact, then substring, then
 * keywords, and keeps the first that finds anything.
 */
import type { Queryable } from '../../db/pool.ts';
import {
  findMatchingDocuments, findQueryTerms, KIND_RANK, listNewestDocuments,
  type DocumentPage, type DocumentRow, type DocumentType, type MatchQuery, type SearchFilters,
} from '../../db/queries/search.ts';
import { recordLinks, type ResourceLinks } from '../types.ts';
import { MATCH_KINDS, type MatchKind, type SearchMode, type SearchParams } from '../schemas/search-params.ts';
import { minimumTerms, prefilterQuery } from './keyword-query.ts';
import { keyHash, normalizeLiteral, queryKeys } from './normalize.ts';

export interface SearchCandidate {
  type: DocumentType;
  id: string;
  title: string;
  snippet: string;
  product: string | null;
  status: string;
  match: { kind: MatchKind; coverage: number };
  signals: { worked: number; partially_worked: number; did_not_work: number };
  links: ResourceLinks;
}

export interface SearchResult {
  items: SearchCandidate[];
  page: number;
  limit: number;
  has_more: boolean;
  /** The mode requested (CONTRACT.md); each candidate's `match.kind` says what it matched by. */
  mode: SearchMode;
  coverage: { total: number; by_type: Record<DocumentType, number>; modes_tried: MatchKind[] };
}

const MODES_TO_TRY: Record<SearchMode, readonly [MatchKind, ...MatchKind[]]> = {
  auto: ['exact', 'substring', 'keywords'],
  exact: ['exact'],
  substring: ['substring'],
  keywords: ['keywords'],
};

/**
 * Coverage and keyword matching count the first 16 distinct terms: a symptom
 * has fewer, and a long pasted literal that got this far has its message
 * first and its details after; every term beyond costs a check per candidate.
 */
const MAX_TERMS = 16;

/** Trigram indexes need three characters; a shorter substring would scan every document. */
const MIN_SUBSTRING_CHARS = 3;

/** `%text%` for LIKE, with its wildcards (and the escape character) taken literally. */
export function likePattern(normalized: string): string | null {
  if ([...normalized].length < MIN_SUBSTRING_CHARS) return null;
  return `%${normalized.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function toCandidate(row: DocumentRow): SearchCandidate {
  return {
    type: row.type,
    id: row.id,
    title: row.title,
    snippet: row.snippet,
    product: row.product,
    status: row.status,
    match: { kind: MATCH_KINDS[row.kind], coverage: Math.round(row.coverage * 1000) / 1000 },
    signals: { worked: row.worked, partially_worked: row.partially_worked, did_not_work: row.did_not_work },
    links: recordLinks({ type: row.type, id: row.id }),
  };
}

export async function runSearch(db: Queryable, params: SearchParams): Promise<SearchResult> {
  const filters: SearchFilters = { type: params.type, product: params.product, status: params.status, signal: params.signal };
  const offset = (params.page - 1) * params.limit;
  const normalized = normalizeLiteral(params.q);
  let found: DocumentPage;
  const tried: MatchKind[] = [];
  if (normalized === '') {
    // Nothing to match (q empty, or only quotes and space): the newest records that pass the filters.
    found = await listNewestDocuments(db, filters, offset, params.limit);
  } else {
    const terms = await findQueryTerms(db, normalized, MAX_TERMS);
    const query: Omit<MatchQuery, 'level'> = {
      keys: queryKeys(normalized).map(keyHash),
      wholeKey: keyHash(normalized),
      pattern: likePattern(normalized),
      terms,
      prefilter: prefilterQuery(terms),
      minTerms: minimumTerms(terms.length),
      filters,
      offset,
      limit: params.limit,
    };
    const [first, ...looser] = MODES_TO_TRY[params.mode];
    tried.push(first);
    found = await findMatchingDocuments(db, { ...query, level: KIND_RANK[first] });
    for (const kind of looser) {
      if (found.total > 0) break;
      // What a stricter kind just failed to find, the looser run need not look for again.
      if (tried.includes('exact')) query.keys = [];
      if (tried.includes('substring')) query.pattern = null;
      tried.push(kind);
      found = await findMatchingDocuments(db, { ...query, level: KIND_RANK[kind] });
    }
  }
  return {
    items: found.rows.map(toCandidate),
    page: params.page,
    limit: params.limit,
    has_more: offset + found.rows.length < found.total,
    mode: params.mode,
    coverage: { total: found.total, by_type: found.byType, modes_tried: tried },
  };
}
