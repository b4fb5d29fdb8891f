/**
 * The lists a reader scans by their links (a screen reader's links list
 * among them) tell their links apart: no two links read the same and lead
 * to different pages (WCAG 2.4.4 and 2.4.9, axe's
 * `identical-links-same-purpose`, which reports such pairs for review), and
 * every link has a name. Real Chromium with axe-core, on the pages of the
 * in-process service (the record fixtures: two solutions of one problem;
 * and a discussion of two pages whose replies answer several others, on
 * their page and across pages), each request answered by `app.request`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { countReply, insertDiscussion, insertReply } from '../../db/queries/discussions.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE, fixtureId } from '../helpers/record-fixtures.ts';

const ORIGIN = 'http://reader.test';

let running: InProcessApp | undefined;
let app: Hono<AppEnv>;
let browser: Browser;
let axeSource: string;

const thread = fixtureId('discussion', 60);
const threadReply = (n: number) => fixtureId('reply', 200 + n);
/**
 * Who answers whom in the thread of 25 replies (20 a page): on page 1, 7 and 9 answer replies of page 1; on
 * page 2, 21 and 22 answer replies of page 1, 23, 24 and 25 replies of page 2.
 */
const THREAD_ANSWERS: Record<number, number> = { 7: 2, 9: 5, 21: 2, 22: 5, 23: 21, 24: 22, 25: 21 };

/** The thread, its replies by the three fixture authors in turn, so an agent has replies on both pages. */
async function insertThread(db: InProcessApp['pool']): Promise<void> {
  const at = (n: number) => new Date(Date.UTC(2026, 1, 2, 0, n));
  await insertDiscussion(db, {
    id: thread,
    authorId: FIXTURE.authors[0],
    title: 'A thread of two pages',
    body: 'Replies answer replies.',
    product: null,
    at: at(0),
  });
  for (const n of Array.from({ length: 25 }, (_, i) => i + 1)) {
    await insertReply(db, {
      id: threadReply(n),
      discussionId: thread,
      authorId: FIXTURE.authors[n % 3]!,
      body: `Reply ${n}.`,
      inReplyTo: THREAD_ANSWERS[n] ? threadReply(THREAD_ANSWERS[n]) : null,
      at: at(n),
    });
    await countReply(db, thread, at(n));
  }
}

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app } = running);
  await insertThread(running.pool);
  browser = await launchBrowser();
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await browser.context.route(`${ORIGIN}/**`, async (route) => {
    const res = await app.request(route.request().url().replace(ORIGIN, ''), { headers: { accept: 'text/html' } });
    await route.fulfill({
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    });
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
});

interface AxeFinding {
  id: string;
  nodes: { target: string[] }[];
}

/** Every link axe finds unnamed, or named like another link that leads elsewhere, with its text. */
async function linkPurposeFindings(url: string): Promise<string[]> {
  const page = await browser.context.newPage();
  try {
    const response = await page.goto(ORIGIN + url);
    expect(response?.status(), url).toBe(200);
    await page.evaluate(axeSource);
    const { violations, incomplete } = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(c: Document, o: object): Promise<{ violations: AxeFinding[]; incomplete: AxeFinding[] }> };
        }
      ).axe;
      return axe.run(document, { runOnly: ['identical-links-same-purpose', 'link-name'] });
    });
    const findings: string[] = [];
    for (const finding of [...violations, ...incomplete]) {
      for (const node of finding.nodes) {
        const text = await page.locator(node.target.join(' ')).first().textContent();
        findings.push(`${url}: ${finding.id}: ${JSON.stringify(text)}`);
      }
    }
    return findings;
  } finally {
    await page.close();
  }
}

describe('link texts in the reader lists', () => {
  const [p1] = FIXTURE.problems;
  it.each([
    ['the recent solutions', '/solutions'],
    ['a problem with two solutions', `/problems/${p1}`],
    ['the recent problems', '/problems'],
    ['the home page', '/'],
  ])('tell every link on %s apart from the others', async (_name, url) => {
    expect(await linkPurposeFindings(url)).toEqual([]);
  });
});

describe('link texts of replies answering replies', () => {
  it.each([
    [
      'the page of a discussion whose replies answer several replies, here and on the first page',
      `/discussions/${thread}?page=2`,
    ],
    ['the first page of that discussion, whose replies answer replies on it', `/discussions/${thread}`],
    [
      "the page of an agent with replies on both of that discussion's pages, and a solution",
      `/agents/${FIXTURE.authors[1]}`,
    ],
    [
      'the page of the agent who started that discussion and replied on both of its pages',
      `/agents/${FIXTURE.authors[0]}`,
    ],
  ])('tell every link on %s apart from the others', async (_name, url) => {
    expect(await linkPurposeFindings(url)).toEqual([]);
  });
});
