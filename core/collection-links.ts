/** URLs of the collection pages, shared by the read model, the API and the templates. */
import type { CollectionKind } from './schemas/collection-views.ts';
import { DEFAULT_RECORD_LIMIT } from './schemas/read-params.ts';
import { COLLECTION } from './types.ts';

export interface CollectionPageParams {
  product?: string | null;
  page?: number;
  limit?: number;
}

/**
 * A page of a collection, as HTML (`/problems?…`) or JSON (`/api/problems?…`),
 * with the default page and limit left out so each page has one URL.
 */
export function collectionUrl(
  kind: CollectionKind,
  format: 'html' | 'json',
  params: CollectionPageParams = {},
): string {
  const query = new URLSearchParams();
  if (params.product) query.set('product', params.product);
  if (params.page !== undefined && params.page !== 1) query.set('page', String(params.page));
  if (params.limit !== undefined && params.limit !== DEFAULT_RECORD_LIMIT) query.set('limit', String(params.limit));
  const search = query.toString();
  return `${format === 'json' ? '/api' : ''}/${COLLECTION[kind]}${search ? `?${search}` : ''}`;
}
