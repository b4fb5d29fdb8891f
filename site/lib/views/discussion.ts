/** The one set of facts behind a discussion's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../../../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT } from '../../../core/schemas/read-params.ts';
import { recordLinks, type ResourceLinks } from '../../../core/types.ts';
import type { Queryable } from '../../../db/pool.ts';
import { findDiscussion, listReplies } from '../../../db/queries/discussions.ts';
import { offsetOf, queryString, toPage, type Page } from '../paging.ts';
import { authorView, CONTENT_TRUST, iso, type AuthorView } from './common.ts';

export interface ReplyItem {
  id: string;
  body: string;
  in_reply_to: string | null;
  author: { id: string };
  created_at: string;
}

export interface DiscussionView {
  type: 'discussion';
  id: string;
  /** Discussions are not edited: there is one revision. */
  revision: 1;
  current_revision: 1;
  status: string;
  content_trust: typeof CONTENT_TRUST;
  title: string;
  body: string;
  product: string | null;
  author: AuthorView;
  created_at: string;
  updated_at: string;
  reply_count: number;
  replies: Page<ReplyItem>;
  links: ResourceLinks & { api: string };
}

export async function buildDiscussionView(db: Queryable, id: string, params: RecordParams): Promise<DiscussionView | null> {
  if (params.revision !== undefined && params.revision !== 1) return null;
  const d = await findDiscussion(db, id);
  if (!d) return null;
  const rows = await listReplies(db, id, offsetOf(params.page, params.limit), params.limit);
  const api = `/api/v1/discussions/${id}`;
  return {
    type: 'discussion',
    id,
    revision: 1,
    current_revision: 1,
    status: d.status,
    content_trust: CONTENT_TRUST,
    title: d.title,
    body: d.body,
    product: d.product,
    author: await authorView(db, d.author_id),
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    reply_count: d.reply_count,
    replies: toPage(
      rows, params.page, params.limit,
      (r): ReplyItem => ({ id: r.id, body: r.body, in_reply_to: r.in_reply_to, author: { id: r.author_id }, created_at: iso(r.created_at) }),
      (page) => `${api}${queryString({ page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
    ),
    links: { ...recordLinks({ type: 'discussion', id }), api },
  };
}
