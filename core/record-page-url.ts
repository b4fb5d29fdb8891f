/** URLs of the pages of a record's inner lists (solutions, outcomes, replies), shared by the templates and the twins. */
import { DEFAULT_RECORD_LIMIT } from './schemas/read-params.ts';

/**
 * A page of a record at one of its URLs (`/discussions/dsc_…`, `….md`), the
 * default page and limit left out: the first page is the projection file,
 * any other is rendered on demand from the same URL with `?page=`.
 */
export function recordPageUrl(url: string, page: number, limit: number): string {
  const query = new URLSearchParams();
  if (page !== 1) query.set('page', String(page));
  if (limit !== DEFAULT_RECORD_LIMIT) query.set('limit', String(limit));
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}
