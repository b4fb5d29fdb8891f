/**
 * Every kind of page a person reads, in real Chromium at a phone width
 * (390 px) and a desktop width (1280 px):
 *
 * (and at 360 px, the narrowest phone the layout is made for):
 *
 * - no sideways scrolling: `document.scrollingElement.scrollWidth` is at most
 *   `innerWidth`, with records made to be hard to fit (an unbroken error
 *   literal, a long product, long ids, a table of environments);
 * - no serious or critical axe-core violations. axe is injected as source text
 *   through `page.evaluate` (DevTools evaluation, which the page's CSP does not
 *   govern; the pages themselves still run under their strict CSP);
 * - a screenshot of each page at each width under test-results/screenshots/
 *   (gitignored), and the measures in test-results/pages-report.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { admit, eventually, send, type Agent } from '../helpers/client.ts';
import { searchPublished } from '../helpers/pagefind.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const OUT = 'test-results';
const SCREENSHOTS = path.join(OUT, 'screenshots');
/** A small phone (the layout's floor), a common phone, a desktop. */
const WIDTHS = [360, 390, 1280] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: unknown[];
}
interface PageMeasure {
  page: string;
  width: number;
  status: number;
  scrollWidth: number;
  innerWidth: number;
  violations: Record<string, string[]>;
}

let stack: Stack;
let browser: Browser;
let author: Agent;
let replier: Agent;
let axeSource: string;
const pages: [string, string][] = [];
const measures: PageMeasure[] = [];

async function write(agent: Agent, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(stack.base, agent, 'POST', url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.resource.id;
}

/** A word no other record contains (letters only, so Pagefind keeps it whole). */
const WORD = `threadword${Date.now()
  .toString(36)
  .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;

beforeAll(async () => {
  stack = await startStack({ SEARCH_INDEX_DELAY_MS: '100' });
  browser = await launchBrowser();
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  author = await admit(stack.base);
  replier = await admit(stack.base);
  const longLiteral = `Error: ENOENT: no such file or directory, open '/home/runner/work/${'very-long-directory-name-'.repeat(8)}node_modules/.cache/babel-loader/${'f'.repeat(64)}.json'`;
  const problem = await write(author, '/api/problems', {
    title: `Build fails with ENOENT on a cache file whose path is ${'x'.repeat(90)} long`,
    body: `The build stops at once with ${WORD}.\n\n${longLiteral}\n\nIt happens on CI only.`,
    product: 'a-really-long-product-name-for-a-monorepo-build-tool',
    error_literal: longLiteral,
    environment: { os: 'ubuntu-24.04', node: '22.11.0', runner: 'github-actions-ubuntu-latest-with-a-long-label' },
    tags: ['ci', 'cache'],
  });
  const solution = await write(author, '/api/solutions', {
    problem_id: problem,
    body: `Clear the cache directory before the build:\n\nrm -rf node_modules/.cache/${'babel-loader/'.repeat(6)}`,
    applicability: 'When the cache was restored from another runner.',
    limitations: 'The first build is slower.',
  });
  await send(stack.base, replier, 'POST', `/api/solutions/${solution}/outcomes`, {
    signal: 'worked',
    note: 'Fixed it.',
    environment: { os: 'ubuntu-24.04', node: '22.11.0' },
  });
  const discussion = await write(author, '/api/discussions', {
    title: `Which cache key should a monorepo use? ${WORD}`,
    body: `Opening post about cache keys and ${WORD}.`,
    product: 'turborepo',
  });
  const reply = await write(replier, `/api/discussions/${discussion}/replies`, {
    body: `Key it on the lockfile hash; ${WORD} aside.`,
  });
  await write(author, `/api/discussions/${discussion}/replies`, { body: 'Thanks, that works.', in_reply_to: reply });
  // The worker renders and indexes the pages: wait for the problem and the discussion to be searchable.
  await eventually(
    async () => (await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, WORD).catch(() => [])).length >= 2,
    30_000,
  );

  pages.push(
    ['home', '/'],
    ['problem', `/problems/${problem}`],
    ['solution', `/solutions/${solution}`],
    ['discussion', `/discussions/${discussion}`],
    ['agent', `/agents/${replier.id}`],
    ['problems-list', '/problems'],
    ['solutions-list', '/solutions'],
    ['discussions-list', '/discussions'],
    ['search', `/search?q=${WORD}`],
    ['join', '/join'],
    ['signin', '/account/signin'],
    ['docs-chat', '/docs/chat'],
    ['not-found', `/problems/${problem.slice(0, -2)}zz`],
    ['authentication-help', '/agent-help/authentication'],
  );
  await mkdir(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  if (measures.length) await writeFile(path.join(OUT, 'pages-report.json'), `${JSON.stringify(measures, null, 2)}\n`);
  await browser?.close();
  await stack?.close();
});

/** Violations by impact, each as "rule-id (n nodes)". */
function byImpact(violations: AxeViolation[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const v of violations) (out[v.impact ?? 'unknown'] ??= []).push(`${v.id} (${v.nodes.length})`);
  return out;
}

describe('pages in Chromium', () => {
  for (const width of WIDTHS) {
    it(`fit ${width} px without sideways scrolling and have no serious or critical axe violations`, async () => {
      const failures: string[] = [];
      for (const [name, url] of pages) {
        const page = await browser.context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.setViewportSize({ width, height: 900 });
        const response = await page.goto(`${stack.base}${url}`);
        const status = response?.status() ?? 0;
        if (name === 'search') {
          await page.waitForFunction(
            () => /result/.test(document.getElementById('search-status')?.textContent ?? ''),
            undefined,
            { timeout: 20_000 },
          );
        }
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.scrollingElement!.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const result = await (
            window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }
          ).axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(() => 0) }));
        });
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
        await page.close();
        const measure = { page: name, width, status, scrollWidth, innerWidth, violations: byImpact(violations) };
        measures.push(measure);
        const expected = name === 'not-found' ? 404 : 200;
        if (status !== expected) failures.push(`${name}: status ${status}, expected ${expected}`);
        if (scrollWidth > innerWidth) failures.push(`${name}: ${scrollWidth} px wide in a ${innerWidth} px window`);
        const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        if (blocking.length) failures.push(`${name}: ${blocking.map((v) => `${v.impact} ${v.id}`).join(', ')}`);
        if (errors.length) failures.push(`${name}: page errors ${errors.join('; ')}`);
      }
      expect(failures).toEqual([]);
      expect(measures.filter((m) => m.width === width)).toHaveLength(pages.length);
    }, 180_000);
  }
});

describe('what the pages show', () => {
  it('finds the discussion on /search, with an excerpt free of ids, dates and labels', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.base}/search?q=${WORD}&type=discussion`);
    await page.waitForFunction(() => /result/.test(document.getElementById('search-status')?.textContent ?? ''));
    const item = page.locator('#search-results li').first();
    expect(await item.locator('a').getAttribute('href')).toMatch(/^\/discussions\/dsc_[0-9a-z]+$/);
    expect(await item.locator('.badge').allTextContents()).toEqual(['Discussion', 'turborepo']);
    const excerpt = (await item.locator('.excerpt').textContent()) ?? '';
    expect(excerpt).toContain(WORD);
    expect(excerpt).not.toMatch(/dsc_|agt_|rpl_|\b20\d\d\b|\bOpen\b|status|replies \d/);
    await page.close();
  });

  it('finds the problem on /search with an excerpt of its own words, no facts list', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.base}/search?q=${WORD}&type=problem`);
    await page.waitForFunction(() => /result/.test(document.getElementById('search-status')?.textContent ?? ''));
    const item = page.locator('#search-results li').first();
    expect(await item.locator('a').getAttribute('href')).toMatch(/^\/problems\/prb_[0-9a-z]+$/);
    const excerpt = (await item.locator('.excerpt').textContent()) ?? '';
    expect(excerpt).toContain(`The build stops at once with ${WORD}`);
    expect(excerpt).not.toMatch(/prb_|agt_|revision|status|\bOpen\b|author|revised/);
    await page.close();
  });

  it('opens the HTML lists from the home page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${stack.base}/`);
    await page.click('main a[href="/problems"]');
    expect(await page.locator('h1').textContent()).toBe('Recent problems');
    expect(await page.locator('ol.records li').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('names the reply authors by handle on the discussion page', async () => {
    const page = await browser.context.newPage();
    const href = pages.find(([name]) => name === 'discussion')![1];
    await page.goto(`${stack.base}${href}`);
    const authors = await page.locator('article.reply .facts a[href^="/agents/"]').allTextContents();
    expect(authors).toEqual([replier.handle, author.handle]);
    await page.close();
  });
});
