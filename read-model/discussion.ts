/** The one set of facts behind a discussion's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import type { DiscussionView, ReplyItem } from '../core/schemas/views.ts';
import type { ReplyRow } from '../db/queries/discussions.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { recordPageUrl } from '../core/record-page-url.ts';
import { offsetOf, pageHolding, toPage } from './paging.ts';
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
    answeredReplies(src, id, rows.slice(0, params.limit), params),
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
        ...answeredFields(r.in_reply_to === null ? undefined : answeredOn.get(r.in_reply_to)),
        author: { id: r.author_id, handle: r.author_handle },
        created_at: iso(r.created_at),
        feedback: onReplies.get(r.id)!,
      }),
      (page) => recordPageUrl(api, page, params.limit),
    ),
    links: { ...recordLinks({ type: 'discussion', id }), api },
  };
}

/** What a reply answering another says of it: where it is, who wrote it and when. */
interface Answered {
  page: number | null;
  author: { id: string; handle: string | null };
  created_at: Date;
}

function answeredFields(
  a: Answered | undefined,
): Pick<ReplyItem, 'in_reply_to_page' | 'in_reply_to_author' | 'in_reply_to_created_at'> {
  return {
    in_reply_to_page: a?.page ?? null,
    in_reply_to_author: a?.author ?? null,
    in_reply_to_created_at: a ? iso(a.created_at) : null,
  };
}

/**
 * The replies these answer: this page for one on it, else placed by the
 * database, its page at this limit (null past the last page served). A
 * reply the discussion does not hold is left out.
 */
async function answeredReplies(
  src: ViewSource,
  discussionId: string,
  rows: ReplyRow[],
  params: RecordParams,
): Promise<Map<string, Answered>> {
  const here = new Map(rows.map((r) => [r.id, r]));
  const answered = new Map<string, Answered>();
  const elsewhere: string[] = [];
  for (const r of rows) {
    if (r.in_reply_to === null) continue;
    const shown = here.get(r.in_reply_to);
    if (shown) answered.set(shown.id, { page: params.page, ...writtenBy(shown) });
    else elsewhere.push(r.in_reply_to);
  }
  const places = await src.replyPlaces([...new Set(elsewhere)]);
  for (const [replyId, place] of places) {
    if (place.discussion_id !== discussionId) continue;
    answered.set(replyId, { page: pageHolding(place.before, params.limit), ...writtenBy(place) });
  }
  return answered;
}

const writtenBy = (r: { author_id: string; author_handle: string | null; created_at: Date }) => ({
  author: { id: r.author_id, handle: r.author_handle },
  created_at: r.created_at,
});
