/** What an empty query lists: the newest documents passing the filters. */
import { queryPrepared, type Queryable } from '../../pool.ts';
import { DOCUMENT_COLUMNS, filterParams, filtersOn, toDocumentPage, TOTALS, type PageRow } from './page.ts';
import { KIND_RANK, type DocumentPage, type SearchFilters } from './types.ts';

/** Rows an empty query counts before it answers "at least this many" (`total_exact: false`). */
export const NEWEST_COUNT_CAP = 1000;

/**
 * One page of all documents passing the filters, newest first: what an
 * empty query lists. The totals count at most NEWEST_COUNT_CAP rows (by
 * type), so listing stays an index walk of a page however large the table.
 */
export async function listNewestDocuments(
  db: Queryable,
  filters: SearchFilters,
  offset: number,
  limit: number,
  options: { prepared?: boolean } = {},
): Promise<DocumentPage> {
  const r = await queryPrepared<PageRow>(
    db,
    options.prepared ? 'ak_search_newest' : undefined,
    `SELECT totals.*, page.* FROM (SELECT ${TOTALS}, count(*) < $7::int AS total_exact FROM (
       SELECT d.type FROM search_documents d WHERE ${filtersOn('$8')} ORDER BY d.created_at DESC, d.id DESC LIMIT $7::int) d) totals
     LEFT JOIN LATERAL (
       SELECT ${KIND_RANK.keywords} AS kind, 0 AS coverage, 0 AS score, ${DOCUMENT_COLUMNS},
              NULL::boolean AS literal_equal, NULL::text AS tsv, NULL::text AS title_tsv
         FROM search_documents d WHERE ${filtersOn('$8')}
        ORDER BY d.created_at DESC, d.id DESC OFFSET $5::int LIMIT $6::int
     ) page ON true`,
    [...filterParams(filters), offset, limit, NEWEST_COUNT_CAP, filters.disputed ?? null],
  );
  return toDocumentPage(r.rows);
}
