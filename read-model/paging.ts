/** Paging of the lists inside a record view: a page query fetches one extra row to know `has_more`. */
import { hasNextPage, LAST_PAGE } from '../core/schemas/read-params.ts';
import type { Page } from '../core/schemas/views.ts';

export function toPage<R, T>(
  rows: R[],
  page: number,
  limit: number,
  map: (row: R) => T,
  nextUrl: (page: number) => string,
): Page<T> {
  const has_more = hasNextPage(rows.length > limit, page);
  return { items: rows.slice(0, limit).map(map), page, limit, has_more, next: has_more ? nextUrl(page + 1) : null };
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;

/**
 * The page, at `limit` items a page, that holds the item `before` items
 * follow in its list; null past the last page served.
 */
export function pageHolding(before: number, limit: number): number | null {
  const page = Math.floor(before / limit) + 1;
  return page <= LAST_PAGE ? page : null;
}
