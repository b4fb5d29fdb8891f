/** Links between the replies of a discussion page, whose replies are paged. */
import { recordPageUrl } from '../../core/record-page-url.ts';
import type { DiscussionView, ReplyItem } from '../../core/schemas/views.ts';

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
