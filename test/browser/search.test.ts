import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SEARCH_CONTENT_SECURITY_POLICY,
  SEARCH_WORKER_CONTENT_SECURITY_POLICY,
} from '../../core/content-security-policy.ts';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.ts';
import { admit, errorOf, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { searchPublished } from '../helpers/pagefind.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack({ SEARCH_INDEX_DELAY_MS: '100' });
  browser = await launchBrowser();
  agent = await admit(stack.base);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A word no other record contains (letters only, so Pagefind keeps it whole). */
const uniqueWord = (stem: string) =>
  `${stem}${randomBytes(5)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;

async function write(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(stack.base, agent, 'POST', path, body);
  expect(res.status).toBe(201);
  return res.body.resource.id;
}

/** Waits (bounded) until the worker's published index finds `word` (before the first run there is no index at all). */
const indexed = (word: string, count = 1) =>
  eventually(async () => {
    const found = await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, word).catch(() => []);
    return found.length >= count;
  }, 20_000);

async function searchFor(query: string, beforeScripts?: () => void): Promise<WatchedPage> {
  const watched = await browser.open(`${stack.base}/search?q=${encodeURIComponent(query)}`, beforeScripts);
  await watched.page.waitForFunction(() => {
    const status = document.getElementById('search-status')?.textContent ?? '';
    return status !== '' && !status.startsWith('Searching…');
  });
  return watched;
}

async function expectClean(watched: WatchedPage) {
  expect(await watched.cspViolations()).toEqual([]);
  expect(watched.errors).toEqual([]);
  expect(watched.console).toEqual([]);
}

describe('/search', () => {
  it('finds a record written through the API once the worker has re-indexed, under the page CSP', async () => {
    const word = uniqueWord('searchable');
    const problemId = await write(
      '/api/problems',
      problemBody({
        title: `Watcher crash with ${word}`,
        body: `Starting the dev server prints ${word} and exits.`,
        product: 'webpack-dev-server',
      }),
    );
    const solutionId = await write('/api/solutions', {
      problem_id: problemId,
      body: `Raise the inotify limit; the ${word} message goes away.`,
    });
    await indexed(word, 2);

    const watched = await searchFor(word);
    const { page } = watched;
    expect(await page.textContent('#search-status')).toBe(`2 results for “${word}”.`);
    const hrefs = await page
      .locator('#search-results li > a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual([`/problems/${problemId}`, `/solutions/${solutionId}`].sort());
    const problem = page.locator(`#search-results li:has(a[href="/problems/${problemId}"])`);
    expect(await problem.locator('a').textContent()).toBe(`Watcher crash with ${word}`);
    expect(await problem.locator('.badge').allTextContents()).toEqual(['Problem', 'webpack-dev-server']);
    expect(await problem.locator('.excerpt mark').allTextContents()).toContain(word);
    const solution = page.locator(`#search-results li:has(a[href="/solutions/${solutionId}"])`);
    // Named by its problem and by what it says (its first line), not by its id.
    expect(await solution.locator('a').textContent()).toBe(
      `Solution to Watcher crash with ${word}: Raise the inotify limit; the ${word} message goes away.`,
    );

    // The type filter, through the form.
    await page.selectOption('#search-type', 'solution');
    await page.click('#search-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#search-results li').length === 1);
    expect(await page.locator('#search-results li > a').getAttribute('href')).toBe(`/solutions/${solutionId}`);
    expect(new URL(page.url()).search).toBe(`?q=${word}&type=solution`);

    // Following a result opens the record.
    await page.click('#search-results li > a');
    await page.waitForURL(`${stack.base}/solutions/${solutionId}`);
    await expectClean(watched);
  });

  it('shows hostile record text as text: no markup from titles, excerpts or products runs or renders', async () => {
    const word = uniqueWord('hostile');
    const title = `<img src=/x onerror="document.title='pwned'"> ${word} <b>bold</b>`;
    const id = await write(
      '/api/problems',
      problemBody({
        title,
        body: `<script>document.title='pwned'</script> <mark>forged</mark> ${word} &amp; <svg onload="document.title='pwned'">`,
        product: '<i>product</i>',
      }),
    );
    await indexed(word);

    const watched = await searchFor(word);
    const { page } = watched;
    const item = page.locator(`#search-results li:has(a[href="/problems/${id}"])`);
    expect(await item.locator('a').textContent()).toBe(title);
    expect(await item.locator('.badge').allTextContents()).toEqual(['Problem', '<i>product</i>']);
    // Only the matched word is marked; the contribution's own <mark> is text.
    const marks = await item.locator('.excerpt mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => m === word)).toBe(true);
    const excerpt = await item.locator('.excerpt').textContent();
    expect(excerpt).toContain('<mark>forged</mark>');
    expect(excerpt).toContain("<script>document.title='pwned'</script>");
    expect(
      await page
        .locator(
          '#search-results img, #search-results b, #search-results i, #search-results svg, #search-results script',
        )
        .count(),
    ).toBe(0);
    expect(await page.title()).toBe('Search · Agent Knowledge');
    await expectClean(watched);
  });

  it('also searches on the page itself when workers are unavailable, which is what needs wasm-unsafe-eval there', async () => {
    const word = uniqueWord('fallback');
    const id = await write('/api/problems', problemBody({ title: `Fallback path finds ${word}` }));
    await indexed(word);
    // Pagefind runs its WASM on the page when it sees no Worker.
    const watched = await searchFor(word, () => Object.defineProperty(window, 'Worker', { value: undefined }));
    expect(await watched.page.evaluate(() => typeof Worker)).toBe('undefined');
    expect(await watched.page.locator('#search-results li > a').getAttribute('href')).toBe(`/problems/${id}`);
    await expectClean(watched);
  });

  it('sends the search page and the Pagefind worker their own policies, and no other page allows WASM', async () => {
    const page = await fetch(`${stack.base}/search`);
    const html = await page.text();
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).toBe(`${SEARCH_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${SEARCH_CONTENT_SECURITY_POLICY}">`);
    const { base_shards } = await (await fetch(`${stack.base}/pagefind/tiers.json`)).json();
    const worker = await fetch(`${stack.base}${base_shards[0]}pagefind-worker.js`);
    expect(worker.headers.get('content-security-policy')).toBe(
      `${SEARCH_WORKER_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
    );
    for (const other of ['/join', '/agent-help/authentication', '/']) {
      expect((await fetch(stack.base + other)).headers.get('content-security-policy')).not.toContain('wasm');
    }
  });

  it('keeps finding records on /search from the static index while PostgreSQL search answers 503 search_unavailable', async () => {
    const word = uniqueWord('sturdy');
    const id = await write('/api/problems', problemBody({ title: `Static search survives ${word}` }));
    await indexed(word);
    // Another session holds the search table: PostgreSQL search cannot answer within its statement limit.
    const holder = await stack.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE search_documents IN ACCESS EXCLUSIVE MODE');
      const res = await fetch(`${stack.base}/api/v1/search?q=${word}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(stack.config.RETRY_AFTER_SECONDS));
      expect(errorOf(await res.json())).toMatchObject({
        code: 'temporarily_unavailable',
        reason: 'search_unavailable',
      });

      const watched = await searchFor(word);
      expect(await watched.page.textContent('#search-status')).toBe(`1 result for “${word}”.`);
      expect(await watched.page.locator('#search-results li > a').getAttribute('href')).toBe(`/problems/${id}`);
      await expectClean(watched);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect((await fetch(`${stack.base}/api/v1/search?q=${word}`)).status).toBe(200);
  });

  it('says so when nothing matches', async () => {
    const watched = await searchFor(uniqueWord('absent'));
    expect(await watched.page.textContent('#search-status')).toMatch(/^No records match/);
    expect(await watched.page.locator('#search-results li').count()).toBe(0);
    await expectClean(watched);
  });

  it('shows a record just written from the recent tier while the base shards are still loading', async () => {
    const older = uniqueWord('settled');
    await write('/api/problems', problemBody({ title: `Settled record ${older}` }));
    await indexed(older);
    const word = uniqueWord('fresh');
    const id = await write('/api/problems', problemBody({ title: `Fresh record ${word}` }));
    await indexed(word);
    const manifest = await (await fetch(`${stack.base}/pagefind/tiers.json`)).json();
    expect(manifest.recent).toBe(true);

    // The base's pagefind.js is held back: only the recent tier can answer.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pattern = /\/pagefind\/base-[^/]+\/\d+\/pagefind\.js$/;
    const hold = async (route: import('playwright-core').Route) => {
      await held;
      await route.continue();
    };
    await browser.context.route(pattern, hold);
    try {
      const watched = await browser.open(`${stack.base}/search?q=${word}`);
      const { page } = watched;
      await page.waitForSelector(`#search-results li > a[href="/problems/${id}"]`, { timeout: 10_000 });
      expect(await page.textContent('#search-status')).toBe('Searching… 1 result among recent records so far.');
      release();
      await page.waitForFunction(() => !document.getElementById('search-status')?.textContent?.startsWith('Searching'));
      expect(await page.textContent('#search-status')).toBe(`1 result for “${word}”.`);
      expect(await page.locator('#search-results li > a').getAttribute('href')).toBe(`/problems/${id}`);
      await expectClean(watched);
    } finally {
      release();
      await browser.context.unroute(pattern, hold);
    }
  });
});
