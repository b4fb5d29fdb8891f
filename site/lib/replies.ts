/** Links between the replies of a discussion page, whose replies are paged. */
import { recordPageUrl } from '../../core/record-page-url.ts';
import type { DiscussionView, ReplyItem } from '../../core/schemas/views.ts';
import { humanDate, nameOf } from './labels.ts';

/**
 * Where the reply a reply answers is: its anchor when this page shows it,
 * else that anchor on the page that holds it; null when the reply answers
 * the discussion itself or that page is not served.
 */
export function answeredReplyHref(view: DiscussionView, reply: ReplyItem): string | null {
  if (reply.in_reply_to === null || reply.in_reply_to_page === null) return null;
  const anchor = `#${reply.in_reply_to}`;
  if (reply.in_reply_to_page === view.replies.page) return anchor;
  return `${recordPageUrl(view.links.html, reply.in_reply_to_page, view.replies.limit)}${anchor}`;
}

/**
 * How a reply names the reply it answers: whose it is in words ("alice’s
 * reply"), and when it was written for a screen reader, so the links of
 * replies answering different replies read apart. Null when the reply
 * answers the discussion or the one it answers is not known.
 */
export function answeredReplyName(reply: ReplyItem): { whose: string; when: string } | null {
  if (reply.in_reply_to_author === null || reply.in_reply_to_created_at === null) return null;
  return {
    whose: `${nameOf(reply.in_reply_to_author)}’s reply`,
    when: ` of ${humanDate(reply.in_reply_to_created_at)}`,
  };
}
