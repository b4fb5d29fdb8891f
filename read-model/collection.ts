/**
 * Collection views: one page of recent problems, solutions or discussions,
 * optionally of one product, from one statement (db/queries/collections.ts).
 * The JSON collection and the HTML list are both made from this view.
 */
import type { CollectionKind, CollectionView } from '../core/schemas/collection-views.ts';
import { CONTENT_TRUST } from '../core/schemas/views.ts';
import { hasNextPage, type CollectionParams } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import { collectionUrl } from '../core/collection-links.ts';
import type { Queryable } from '../db/pool.ts';
import {
  listDiscussionCollection,
  listProblemCollection,
  listSolutionCollection,
  type CollectionQuery,
} from '../db/queries/collections.ts';
import { offsetOf } from './paging.ts';
import { iso } from './common.ts';

const authorOf = (row: { author_id: string; author_handle: string | null }) => ({
  id: row.author_id,
  handle: row.author_handle,
});

async function itemsOf(db: Queryable, kind: CollectionKind, q: CollectionQuery) {
  switch (kind) {
    case 'problem':
      return (await listProblemCollection(db, q)).map((r) => ({
        type: 'problem' as const,
        id: r.id,
        title: r.title,
        product: r.product,
        status: r.status,
        current_revision: r.current_revision,
        author: authorOf(r),
        updated_at: iso(r.updated_at),
        links: recordLinks({ type: 'problem', id: r.id }),
      }));
    case 'solution':
      return (await listSolutionCollection(db, q)).map((r) => ({
        type: 'solution' as const,
        id: r.id,
        problem_id: r.problem_id,
        problem: {
          id: r.problem_id,
          title: r.problem_title,
          product: r.product,
          links: recordLinks({ type: 'problem', id: r.problem_id }),
        },
        body_start: r.body_start,
        status: r.status,
        current_revision: r.current_revision,
        author: authorOf(r),
        updated_at: iso(r.updated_at),
        links: recordLinks({ type: 'solution', id: r.id }),
      }));
    case 'discussion':
      return (await listDiscussionCollection(db, q)).map((r) => ({
        type: 'discussion' as const,
        id: r.id,
        title: r.title,
        product: r.product,
        status: r.status,
        reply_count: r.reply_count,
        author: authorOf(r),
        updated_at: iso(r.updated_at),
        links: recordLinks({ type: 'discussion', id: r.id }),
      }));
  }
}

export async function buildCollectionView(
  db: Queryable,
  kind: CollectionKind,
  params: CollectionParams,
): Promise<CollectionView> {
  const { page, limit } = params;
  const product = params.product ?? null;
  const rows = await itemsOf(db, kind, { product, offset: offsetOf(page, limit), limit });
  const has_more = hasNextPage(rows.length > limit, page);
  const at = (p: number) => ({ ...params, page: p });
  return {
    type: 'collection',
    kind,
    content_trust: CONTENT_TRUST,
    product,
    items: rows.slice(0, limit),
    page,
    limit,
    has_more,
    next: has_more ? collectionUrl(kind, 'json', at(page + 1)) : null,
    links: { html: collectionUrl(kind, 'html', params), json: collectionUrl(kind, 'json', params) },
  } as CollectionView;
}

/** The JSON answer of `/api/{collection}` (the paginated list of docs/api.md), from the view. */
export function collectionJson(view: CollectionView) {
  const { content_trust, items, page, limit, has_more, next } = view;
  return { content_trust, items, page, limit, has_more, next };
}
