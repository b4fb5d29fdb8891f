/** The one set of facts behind a discussion's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT, LAST_PAGE } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import type { DiscussionView, ReplyItem } from '../core/schemas/views.ts';
import type { ReplyRow } from '../db/queries/discussions.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { offsetOf, queryString, toPage } from './paging.ts';
import { authorView, CONTENT_TRUST, iso } from './common.ts';

export type { DiscussionView };

export async function buildDiscussionView(
  db: Queryable,
  id: string,
  params: RecordParams,
): Promise<DiscussionView | null> {
  return discussionViewFrom(liveViewSource(db), id, params);
}

export async function discussionViewFrom(
  src: ViewSource,
  id: string,
  params: RecordParams,
): Promise<DiscussionView | null> {
  if (params.revision !== undefined && params.revision !== 1) return null;
  const d = await src.discussion(id);
  if (!d) return null;
  const rows = await src.replies(id, offsetOf(params.page, params.limit), params.limit);
  const api = `/api/v1/discussions/${id}`;
  const [onDiscussion, onReplies, answeredOn] = await Promise.all([
    src.feedbackEvidence('discussion', [id]),
    src.feedbackEvidence(
      'reply',
      rows.slice(0, params.limit).map((r) => r.id),
    ),
    pagesOfAnswered(src, id, rows.slice(0, params.limit), params),
  ]);
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
    author: await authorView(src, d.author_id),
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    reply_count: d.reply_count,
    feedback: onDiscussion.get(id)!,
    replies: toPage(
      rows,
      params.page,
      params.limit,
      (r): ReplyItem => ({
        id: r.id,
        body: r.body,
        in_reply_to: r.in_reply_to,
        in_reply_to_page: r.in_reply_to === null ? null : (answeredOn.get(r.in_reply_to) ?? null),
        author: { id: r.author_id, handle: r.author_handle },
        created_at: iso(r.created_at),
        feedback: onReplies.get(r.id)!,
      }),
      (page) => `${api}${queryString({ page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
    ),
    links: { ...recordLinks({ type: 'discussion', id }), api },
  };
}

/**
 * The page (at this limit) of each reply these answer: this page for one on
 * it, else counted in the database. Past the last page served it is left
 * out, as is a reply the discussion does not hold.
 */
async function pagesOfAnswered(
  src: ViewSource,
  discussionId: string,
  rows: ReplyRow[],
  params: RecordParams,
): Promise<Map<string, number>> {
  const here = new Set(rows.map((r) => r.id));
  const pages = new Map<string, number>();
  const elsewhere: string[] = [];
  for (const r of rows) {
    if (r.in_reply_to === null) continue;
    if (here.has(r.in_reply_to)) pages.set(r.in_reply_to, params.page);
    else elsewhere.push(r.in_reply_to);
  }
  const before = await src.repliesBefore(discussionId, [...new Set(elsewhere)]);
  for (const [replyId, count] of before) {
    const page = Math.floor(count / params.limit) + 1;
    if (page <= LAST_PAGE) pages.set(replyId, page);
  }
  return pages;
}
