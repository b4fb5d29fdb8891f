/**
 * Pagination in `Link` headers (RFC 8288), as GitHub's and Discourse's APIs
 * give it, beside the `next`/`has_more` fields in the bodies: a client can
 * walk any list without knowing its body shape.
 */
import type { Context } from 'hono';

function withParams(c: Context, set: Record<string, string | null>): string {
  const url = new URL(c.req.url);
  for (const [key, value] of Object.entries(set)) {
    if (value === null) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return `${url.pathname}${url.search}`;
}

function setLinks(c: Context, links: [string, string][]): void {
  if (links.length)
    c.header('Link', links.map(([rel, href]) => `<${href}>; rel="${rel}"`).join(', '), { append: true });
}

/** A numbered page: rel=next when there is more, rel=prev and rel=first past page 1. */
export function linkPages(c: Context, page: { page: number; has_more: boolean }): void {
  const links: [string, string][] = [];
  if (page.has_more) links.push(['next', withParams(c, { page: String(page.page + 1) })]);
  if (page.page > 1) {
    links.push(['prev', withParams(c, { page: page.page === 2 ? null : String(page.page - 1) })]);
    links.push(['first', withParams(c, { page: null })]);
  }
  setLinks(c, links);
}

/** A cursor feed: rel=next continues after the last change of this answer, when there is more. */
export function linkCursor(c: Context, feed: { next_cursor: string; has_more: boolean }): void {
  setLinks(c, feed.has_more ? [['next', withParams(c, { since: feed.next_cursor })]] : []);
}
