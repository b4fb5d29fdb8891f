/** URLs of the pages of a record's inner lists (solutions, outcomes, replies), shared by the templates and the twins. */
import { DEFAULT_RECORD_LIMIT } from './schemas/read-params.ts';

/** A query string of the non-default parameters, in a fixed order. */
export function queryString(params: Record<string, number | undefined>, defaults: Record<string, number>): string {
  const parts = Object.entries(params)
    .filter(([key, value]) => value !== undefined && value !== defaults[key])
    .map(([key, value]) => `${key}=${value}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * A page of a record at one of its URLs (`/discussions/dsc_…`, `….md`), the
 * default page and limit left out: the first page is the projection file,
 * any other is rendered on demand from the same URL with `?page=`.
 */
export function recordPageUrl(url: string, page: number, limit: number): string {
  return `${url}${queryString({ page, limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`;
}
