/**
 * A discussion's replies are paged; a reply answering one on another page
 * links to that page and the reply's anchor on it, in the HTML page and in
 * the Markdown twin, and the URL given is one the service serves with that
 * reply on it. The link says whose reply it is and when it was written. An
 * agent's page links each of its recent replies the same way. Driven
 * in-process with the real database and the built site.
 */
import type { Hono } from 'hono';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { countReply, insertDiscussion, insertReply } from '../../db/queries/discussions.ts';
import { buildRecordView, loadViews } from '../../read-model/record-view.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE, FIXTURE_NOW, fixtureId } from '../helpers/record-fixtures.ts';

let pool: pg.Pool;
let app: Hono<AppEnv>;
let running: InProcessApp | undefined;

const discussion = fixtureId('discussion', 50);
/** Reply n of the discussion, in its order (ids sort as the numbers do). */
const reply = (n: number) => fixtureId('reply', 100 + n);
/** Who answers whom: 22 (page 2) answers 3 (page 1), 23 answers 21 (both page 2), 5 (page 1) answers 24 (page 2). */
const ANSWERS: Record<number, number> = { 22: 3, 23: 21, 5: 24 };

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app, pool } = running);
  const at = (n: number) => new Date(Date.UTC(2026, 1, 1, 0, n));
  await insertDiscussion(pool, {
    id: discussion,
    authorId: FIXTURE.authors[0],
    title: 'A long thread',
    body: 'Twenty-five replies.',
    product: null,
    at: at(0),
  });
  // 24 first, so that 5 can answer it: ids out of step with the answers, as clocks of two servers can make them.
  for (const n of [24, ...Array.from({ length: 25 }, (_, i) => i + 1).filter((n) => n !== 24)]) {
    await insertReply(pool, {
      id: reply(n),
      discussionId: discussion,
      authorId: FIXTURE.authors[n % 3]!,
      body: `Reply number ${n}.`,
      inReplyTo: ANSWERS[n] ? reply(ANSWERS[n]) : null,
      at: at(n),
    });
    await countReply(pool, discussion, at(n));
  }
});

afterAll(() => running?.close());

const text = async (url: string) => {
  const res = await app.request(url);
  expect(res.status, url).toBe(200);
  return res.text();
};

/** The "in reply to" link in reply `n`'s article: its href and its text, markup left out. */
function answerLink(html: string, n: number): { href: string; text: string } | undefined {
  const article = html.split(`<article class="reply" id="${reply(n)}"`)[1]?.split('</article>')[0] ?? '';
  const m = /in reply to <a href="([^"]+)">(.*?)<\/a>/.exec(article);
  return m ? { href: m[1]!, text: m[2]!.replace(/<[^>]*>/g, '') } : undefined;
}
const answerHref = (html: string, n: number) => answerLink(html, n)?.href;

/** Opens `href` (the page part) and says whether the reply its anchor names is on it. */
async function holdsAnchor(href: string): Promise<boolean> {
  const [page, anchor] = href.split('#');
  return (await text(page!.replaceAll('&amp;', '&'))).includes(`<article class="reply" id="${anchor}"`);
}

describe('a reply answering another', () => {
  it('links from page 2 to the first page and the anchor of the reply it answers, on one page to the anchor alone', async () => {
    const html = await text(`/discussions/${discussion}?page=2`);
    expect(answerHref(html, 22)).toBe(`/discussions/${discussion}#${reply(3)}`);
    expect(answerHref(html, 23)).toBe(`#${reply(21)}`);
    expect(await holdsAnchor(answerHref(html, 22)!)).toBe(true);
  });

  it('links from the first page to a later one, in the file the worker writes too', async () => {
    const html = await text(`/discussions/${discussion}`);
    expect(answerHref(html, 5)).toBe(`/discussions/${discussion}?page=2#${reply(24)}`);
    expect(await holdsAnchor(answerHref(html, 5)!)).toBe(true);
    // The worker's batched read gives the file the same link.
    const ref = { type: 'discussion', id: discussion } as const;
    const [batched] = await loadViews(pool, [ref], FIXTURE_NOW);
    expect(batched).toEqual(await buildRecordView(pool, ref, undefined, FIXTURE_NOW));
  });

  it('keeps a smaller page size in its link', async () => {
    const html = await text(`/discussions/${discussion}?page=3&limit=10`);
    expect(answerHref(html, 22)).toBe(`/discussions/${discussion}?limit=10#${reply(3)}`);
    expect(await holdsAnchor(answerHref(html, 22)!)).toBe(true);
    const first = await text(`/discussions/${discussion}?limit=10`);
    expect(answerHref(first, 5)).toBe(`/discussions/${discussion}?page=3&amp;limit=10#${reply(24)}`);
    expect(await holdsAnchor(answerHref(first, 5)!)).toBe(true);
  });

  it('names whose reply it answers and when it was written, so links to different replies read apart', async () => {
    const html = await text(`/discussions/${discussion}?page=2`);
    // Replies 3 and 21 are both the first fixture author's: their times tell them apart.
    expect(answerLink(html, 22)?.text).toBe('fixture-alice’s reply of 1 Feb 2026, 00:03 UTC');
    expect(answerLink(html, 23)?.text).toBe('fixture-alice’s reply of 1 Feb 2026, 00:21 UTC');
    // The time is for a screen reader; the page shows whose reply it is.
    expect(html).toContain(`fixture-alice’s reply<span class="visually-hidden"> of 1 Feb 2026, 00:03 UTC</span></a>`);
    const first = await text(`/discussions/${discussion}`);
    expect(answerLink(first, 5)?.text).toBe('fixture-alice’s reply of 1 Feb 2026, 00:24 UTC');
  });

  it('names the page of the reply it answers, and whose it is, in the Markdown twin and the JSON', async () => {
    const md = await text(`/discussions/${discussion}.md?page=2`);
    const alice = `${FIXTURE.authors[0]} (fixture-alice)`;
    const line = `- in_reply_to: ${reply(3)} by ${alice}, 2026-02-01T00:03:00.000Z (on page 1: /discussions/${discussion}.md)`;
    expect(md).toContain(line);
    expect(md).toContain(`- in_reply_to: ${reply(21)} by ${alice}, 2026-02-01T00:21:00.000Z\n`);
    expect(await text(`/discussions/${discussion}.md`)).toContain(`### Reply ${reply(3)}\n`);
    const json = JSON.parse(await text(`/discussions/${discussion}.json?page=2`));
    const items = new Map(json.replies.items.map((r: { id: string }) => [r.id, r]));
    expect(items.get(reply(22))).toMatchObject({ in_reply_to: reply(3), in_reply_to_page: 1 });
    expect(items.get(reply(23))).toMatchObject({ in_reply_to: reply(21), in_reply_to_page: 2 });
    expect(items.get(reply(25))).toMatchObject({ in_reply_to: null, in_reply_to_page: null });
    expect(items.get(reply(22))).toMatchObject({
      in_reply_to_author: { id: FIXTURE.authors[0], handle: 'fixture-alice' },
      in_reply_to_created_at: '2026-02-01T00:03:00.000Z',
    });
    expect(items.get(reply(25))).toMatchObject({ in_reply_to_author: null, in_reply_to_created_at: null });
  });
});

describe("an agent's recent replies", () => {
  // The second fixture author wrote replies 1, 4, …, 19 (page 1) and 22, 25 (page 2).
  const agent = FIXTURE.authors[1];
  /** The href and text of the agent page's link to reply `n`. */
  function replyLink(html: string, n: number): { href: string; text: string } | undefined {
    const item = html.split('<li data-type="reply">').find((li) => li.includes(`#${reply(n)}"`)) ?? '';
    const m = /<a href="([^"]+)">(.*?)<\/a>/.exec(item);
    return m ? { href: m[1]!, text: m[2]!.replace(/<[^>]*>/g, '') } : undefined;
  }

  it('link each to the page and the anchor holding it, named by its discussion and its time', async () => {
    const html = await text(`/agents/${agent}`);
    expect(replyLink(html, 22)).toEqual({
      href: `/discussions/${discussion}?page=2#${reply(22)}`,
      text: 'Reply in “A long thread”, 1 Feb 2026, 00:22 UTC',
    });
    expect(replyLink(html, 19)?.href).toBe(`/discussions/${discussion}#${reply(19)}`);
    expect(await holdsAnchor(replyLink(html, 22)!.href)).toBe(true);
    expect(await holdsAnchor(replyLink(html, 19)!.href)).toBe(true);
  });

  it('give the same pages in the Markdown twin and the JSON, and the same view when read in a batch', async () => {
    const md = await text(`/agents/${agent}.md`);
    expect(md).toContain(`- reply ${reply(22)} (2026-02-01T00:22:00.000Z): /discussions/${discussion}.md?page=2\n`);
    expect(md).toContain(`- reply ${reply(19)} (2026-02-01T00:19:00.000Z): /discussions/${discussion}.md\n`);
    expect(md).toContain('discussion_title (untrusted contribution text):\n\n```text\nA long thread\n```');
    const json = JSON.parse(await text(`/agents/${agent}.json`));
    const items = new Map(json.recent_contributions.map((c: { id: string }) => [c.id, c]));
    expect(items.get(reply(22))).toMatchObject({
      discussion_title: 'A long thread',
      links: {
        html: `/discussions/${discussion}?page=2#${reply(22)}`,
        json: `/discussions/${discussion}.json?page=2`,
        markdown: `/discussions/${discussion}.md?page=2`,
      },
    });
    const ref = { type: 'agent', id: agent } as const;
    const [batched] = await loadViews(pool, [ref], FIXTURE_NOW);
    expect(batched).toEqual(await buildRecordView(pool, ref, undefined, FIXTURE_NOW));
  });
});
