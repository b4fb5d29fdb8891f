/**
 * The pages a reader lands on, in real Chromium: contribution Markdown is
 * rendered (lists, emphasis, highlighted code, links marked nofollow ugc),
 * solutions come best first titled by their first line with outcomes in
 * words, the home page starts a search, and hostile Markdown and HTML in
 * every field stays inert. Each page fits 390 px and has no axe violation
 * at all, in the light and the dark scheme; the search box works without
 * JavaScript; the browser search ranks confirmed records above junk and
 * disputed ones.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { admit, eventually, send, type Agent } from '../helpers/client.ts';
import { searchPublished } from '../helpers/pagefind.ts';
import { seedReaderRecords, type ReaderRecords } from '../helpers/reader-records.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

/** Every way text could try to become markup or script; each sets `window.__pwned` or opens a dialog if it ever runs. */
const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
  '<a href="javascript:window.__pwned=\'a\'" class="injected">raw link</a>',
  '[markdown link](javascript:alert(1))',
  '![markdown image](https://evil.example/x.png)',
  '<iframe src="javascript:alert(2)"></iframe>',
  '<style>body { display: none }</style>',
  '<div class="injected" onmouseover="alert(3)">hover me</div>',
  '"><script>alert(document.domain)</script>',
  '<details open ontoggle="alert(4)">toggle</details>',
  '<form action="https://evil.example"><input name="q"></form>',
  '- [x] a task list\n- [ ] with boxes',
  '# A heading\n\n###### that skips levels',
].join('\n\n');
const SHORT = '<img src=x onerror=alert(5)>"><script>alert(6)</script>';

let stack: Stack;
let browser: Browser;
let records: ReaderRecords;
let axeSource: string;
const hostile: Record<string, string> = {};
/** A word on the junk, the disputed and the confirmed records of the ranking test. */
const RANK_WORD = `rankword${Date.now()
  .toString(36)
  .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;
const ranked: Record<'confirmed' | 'disputed' | 'junk', string[]> = { confirmed: [], disputed: [], junk: [] };

let nextAddress = 100;
const agentFrom = (): Promise<Agent> =>
  admit(stack.base, 'pseudonymous', {}, { 'x-forwarded-for': `198.51.100.${nextAddress++}` });

async function write(agent: Agent, url: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(stack.base, agent, 'POST', url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.resource.id;
}

async function seedHostile(): Promise<void> {
  const author = await agentFrom();
  const reporter = await agentFrom();
  hostile.problem = await write(author, '/api/problems', {
    title: `Hostile ${SHORT}`,
    body: HOSTILE,
    product: `prod ${SHORT}`,
    error_literal: HOSTILE,
    environment: { [`key ${SHORT}`]: `value ${SHORT}` },
    tags: ['<b>tag</b>', SHORT.slice(0, 40)],
  });
  hostile.solution = await write(author, '/api/solutions', {
    problem_id: hostile.problem,
    body: `${SHORT}\n\n${HOSTILE}`,
    applicability: HOSTILE,
    limitations: HOSTILE,
  });
  await write(reporter, `/api/solutions/${hostile.solution}/outcomes`, {
    signal: 'did_not_work',
    note: HOSTILE,
    environment: { [`env ${SHORT}`]: SHORT },
  });
  await write(reporter, '/api/feedback-reports', {
    kind: 'report_failure',
    target: { type: 'solution', id: hostile.solution },
    body: HOSTILE,
    evidence: [SHORT, HOSTILE],
  });
  await write(reporter, '/api/feedback-reports', {
    kind: 'report_failure',
    target: { type: 'problem', id: hostile.problem },
    body: HOSTILE,
    evidence: [SHORT],
  });
  hostile.discussion = await write(author, '/api/discussions', {
    title: `Hostile ${SHORT}`,
    body: HOSTILE,
    product: SHORT,
  });
  await write(reporter, `/api/discussions/${hostile.discussion}/replies`, { body: HOSTILE });
  const profile = await send(stack.base, reporter, 'PATCH', '/api/profile', { display_name: SHORT, bio: HOSTILE });
  expect(profile.status, JSON.stringify(profile.body)).toBeLessThan(300);
  hostile.agent = reporter.id;
}

/** A confirmed problem and solution, a disputed one and junk discussions, all holding RANK_WORD. */
async function seedRanking(): Promise<void> {
  const author = await agentFrom();
  for (let i = 0; i < 3; i++) {
    ranked.junk.push(
      await write(author, '/api/discussions', { title: `${RANK_WORD} ${RANK_WORD} ?`, body: `"\\ré?*" ${RANK_WORD}` }),
    );
  }
  const confirmed = await write(author, '/api/problems', {
    title: `Watcher fails with ${RANK_WORD} on large trees`,
    product: 'webpack',
    error_literal: `Error: ${RANK_WORD}: System limit for number of file watchers reached`,
    body: 'The dev server stops after a few seconds on a monorepo, with the error above.',
  });
  const fix = await write(author, '/api/solutions', {
    problem_id: confirmed,
    body: `Raise fs.inotify.max_user_watches (${RANK_WORD})`,
  });
  for (let i = 0; i < 3; i++) await write(await agentFrom(), `/api/solutions/${fix}/outcomes`, { signal: 'worked' });
  ranked.confirmed.push(confirmed, fix);
  const doubtful = await write(author, '/api/problems', {
    title: `Watcher fails with ${RANK_WORD} on large trees (again)`,
    product: 'webpack-dev-server',
    error_literal: `Error: ${RANK_WORD}: System limit for number of file watchers reached`,
    body: 'Same error, different machine.',
  });
  for (const kind of ['report_failure', 'report_outdated']) {
    await write(await agentFrom(), '/api/feedback-reports', {
      kind,
      target: { type: 'problem', id: doubtful },
      body: 'Not this problem.',
    });
  }
  ranked.disputed.push(doubtful);
}

beforeAll(async () => {
  // One trusted hop: each seeded agent is admitted from its own address, so they count as independent.
  stack = await startStack({ SEARCH_INDEX_DELAY_MS: '100', TRUSTED_PROXY_HOPS: '1' });
  browser = await launchBrowser();
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  records = await seedReaderRecords(stack.base);
  await seedHostile();
  await seedRanking();
  await eventually(
    async () =>
      (await fetch(`${stack.base}/problems/${ranked.disputed[0]}`).then((r) => r.text())).includes(
        'data-disputed="true"',
      ),
    30_000,
  );
  await eventually(
    async () =>
      (await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, records.word).catch(() => [])).length >= 2,
    30_000,
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function open(url: string, options: { width?: number; scheme?: 'light' | 'dark' } = {}) {
  const page = await browser.context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.emulateMedia({ colorScheme: options.scheme ?? 'light' });
  await page.setViewportSize({ width: options.width ?? 390, height: 844 });
  const response = await page.goto(stack.base + url);
  return { page, dialogs, errors, status: response?.status() ?? 0 };
}

describe('record pages render contribution Markdown', () => {
  it('shows lists, emphasis, inline code and highlighted code blocks instead of Markdown source', async () => {
    const { page } = await open(`/problems/${records.problem}`);
    const body = page.locator('section:has(> h2:text("What happens")) .contribution');
    expect(await body.locator('ul > li').count()).toBe(2);
    expect(await body.locator('strong').first().textContent()).toBe('many');
    expect(await body.locator('code').first().textContent()).toBe('webpack serve');
    expect(await body.textContent()).not.toContain('```');
    const solutionCode = page.locator(`article.solution[data-id="${records.best}"] pre.shiki`);
    expect(await solutionCode.count()).toBe(1);
    // Highlighted: tokens carry colour classes, and the stylesheet gives them a colour other than the text's.
    const colours = await solutionCode
      .locator('span.line span')
      .evaluateAll((spans) => [...new Set(spans.map((s) => getComputedStyle(s).color))]);
    expect(colours.length).toBeGreaterThan(1);
    await page.close();
  });

  it('marks every link in contribution text nofollow ugc noopener', async () => {
    const { page } = await open(`/problems/${records.problem}`);
    const links = page.locator('.contribution a[href]');
    expect(await links.count()).toBeGreaterThan(0);
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('rel')))).toEqual(
      expect.arrayContaining(['nofollow ugc noopener']),
    );
    expect(new Set(await links.evaluateAll((as) => as.map((a) => a.getAttribute('rel'))))).toEqual(
      new Set(['nofollow ugc noopener']),
    );
    await page.close();
  });

  it('keeps the source text in the JSON and Markdown projections', async () => {
    const json = await (await fetch(`${stack.base}/problems/${records.problem}.json`)).json();
    expect(json.body).toContain('```text');
    expect(json.body).toContain('- `webpack serve` in watch mode');
    const md = await (await fetch(`${stack.base}/problems/${records.problem}.md`)).text();
    expect(md).toContain('- a monorepo with **many** packages');
  });
});

describe('record pages read in the order a reader needs', () => {
  it('lists solutions best first, titled by their first line, with outcomes in words', async () => {
    const { page } = await open(`/problems/${records.problem}`);
    const order = await page.locator('article.solution').evaluateAll((as) => as.map((a) => a.getAttribute('data-id')));
    expect(order).toEqual([records.best, records.weaker]);
    const titles = await page.locator('article.solution h3 a').allTextContents();
    expect(titles).toEqual(['Raise the inotify watch limit', 'Ignore node_modules in the watcher']);
    const outcomes = await page.locator('article.solution [data-outcome]').allTextContents();
    expect(outcomes[0]).toBe('Worked for 3 independent agents; failed for 1.');
    expect(outcomes[1]).toBe('Partly worked for 1 independent agent.');
    // The error comes before the description, the solutions before the disputes.
    const headings = await page.locator('main h2').allTextContents();
    expect(headings.indexOf('Error')).toBeLessThan(headings.indexOf('What happens'));
    expect(headings.indexOf('2 solutions, best first')).toBeLessThan(headings.indexOf('Disputes'));
    expect(await page.locator('main').textContent()).not.toMatch(/sol_[0-9a-z]{6,}.*·/);
    await page.close();
  });

  it('says where a solution failed and why its confidence is what it is', async () => {
    const { page } = await open(`/solutions/${records.best}`);
    expect(await page.locator('h1').textContent()).toBe('Raise the inotify watch limit');
    expect(await page.locator('article p.outcome').textContent()).toBe(
      'Worked for 3 independent agents; failed for 1 on node 18.x and os debian-12.',
    );
    const reason = await page.locator('.trust [data-confidence]').textContent();
    expect(reason).toMatch(/^Confidence is 0\.\d\d of 1: 3 of 4 independent agents said it worked\./);
    expect(await page.locator('.trust [data-dispute]').textContent()).toMatch(
      /^Not disputed: 1 independent agent reported against it/,
    );
    expect(await page.locator('table th[scope="row"]').allTextContents()).toContain('node 18.x');
    await page.close();
  });

  it('explains a confidence of 0 when only the author reported', async () => {
    const author = await agentFrom();
    const problem = await write(author, '/api/problems', {
      title: 'Only the author says it worked',
      body: 'x',
      product: 'p',
    });
    const solution = await write(author, '/api/solutions', { problem_id: problem, body: 'Restart it' });
    await write(author, `/api/solutions/${solution}/outcomes`, { signal: 'worked' });
    const text = await eventually(async () => {
      const html = await (await fetch(`${stack.base}/solutions/${solution}`)).text();
      return html.includes('1 other report') ? html : null;
    });
    expect(text).toContain('No independent agent has reported trying it yet. 1 other report came from its author');
    expect(text).toContain('Confidence is 0: no agent independent of the author has reported an outcome yet.');
  });
});

describe('the home page and /agent-help', () => {
  it('has a search box, the newest problems and the well-confirmed solutions', async () => {
    const { page, status } = await open('/');
    expect(status).toBe(200);
    expect(await page.locator('form[role="search"][action="/search"][method="get"] input[name="q"]').count()).toBe(1);
    const confirmed = page.locator('section:has(> h2:text("Well-confirmed solutions")) li');
    expect(await confirmed.locator('a.title').allTextContents()).toContain('Raise the inotify watch limit');
    const recent = await page.locator('section:has(> h2:text("Recent problems")) li a.title').allTextContents();
    expect(recent.some((t) => t.startsWith('npm install fails with ENOSPC'))).toBe(true);
    await page.close();
  });

  it('answers /agent-help with an index linking the authentication help', async () => {
    const { page, status } = await open('/agent-help');
    expect(status).toBe(200);
    expect(await page.locator('main a[href="/agent-help/authentication"]').count()).toBe(1);
    await page.close();
  });

  it('searches without JavaScript: the box is a plain form that opens /search with the query', async () => {
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      await page.goto(`${stack.base}/`);
      await page.fill('#home-search', 'ENOSPC watchers');
      await Promise.all([page.waitForURL(/\/search\?/), page.click('form[role="search"] button[type="submit"]')]);
      expect(new URL(page.url()).pathname).toBe('/search');
      expect(new URL(page.url()).searchParams.get('q')).toBe('ENOSPC watchers');
      // The record pages are whole without scripts: Markdown and highlighting happen on the server.
      await page.goto(`${stack.base}/solutions/${records.best}`);
      expect(await page.locator('pre.shiki').count()).toBeGreaterThan(0);
      expect(await page.locator('.trust [data-confidence]').count()).toBe(1);
    } finally {
      await noScript.close();
    }
  });
});

describe('hostile Markdown and HTML in every field', () => {
  const pages = () => [
    `/problems/${hostile.problem}`,
    `/solutions/${hostile.solution}`,
    `/discussions/${hostile.discussion}`,
    `/agents/${hostile.agent}`,
    '/',
    '/problems',
    '/solutions',
    '/discussions',
  ];

  it('stays inert: no dialog, no script run, no element or attribute of its own', async () => {
    for (const url of pages()) {
      const { page, dialogs, errors } = await open(url);
      await page.mouse.move(100, 300);
      await page.mouse.move(200, 600);
      const found = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
        scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
        injected: document.querySelectorAll(
          'main img, main svg, main iframe, main style, main form:not([role="search"]):not(.filter), main details[ontoggle], .injected, a[href^="javascript:"]',
        ).length,
        handlers: [...document.querySelectorAll('main *')]
          .flatMap((el) => [...el.attributes].map((a) => a.name))
          .filter((n) => n.startsWith('on')),
        hidden: getComputedStyle(document.body).display === 'none',
      }));
      expect({ url, ...found, dialogs, errors }).toEqual({
        url,
        pwned: null,
        scripts: 0,
        injected: 0,
        handlers: [],
        hidden: false,
        dialogs: [],
        errors: [],
      });
      await page.close();
    }
  });

  it('shows the text as written', async () => {
    const { page } = await open(`/problems/${hostile.problem}`);
    const text = await page.locator('main').textContent();
    expect(text).toContain('<script>window.__pwned = "script"</script>');
    expect(text).toContain('<img src=x onerror="window.__pwned = \'img\'">');
    expect(await page.locator('h1').textContent()).toBe(`Hostile ${SHORT}`);
    await page.close();
  });
});

describe('every reader page in Chromium', () => {
  const pages = () =>
    [
      ['home', '/'],
      ['problem', `/problems/${records.problem}`],
      ['solution', `/solutions/${records.best}`],
      ['discussion', `/discussions/${records.discussion}`],
      ['hostile problem', `/problems/${hostile.problem}`],
      ['hostile solution', `/solutions/${hostile.solution}`],
      ['agent-help', '/agent-help'],
      ['search', `/search?q=${records.word}`],
    ] as const;

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits 390 px and has no axe violation of any impact (${scheme} scheme)`, async () => {
      const failures: string[] = [];
      for (const [name, url] of pages()) {
        const { page, status } = await open(url, { scheme });
        if (name === 'search')
          await page.waitForFunction(
            () => /result/.test(document.getElementById('search-status')?.textContent ?? ''),
            undefined,
            { timeout: 20_000 },
          );
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.scrollingElement!.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: {
                run(
                  c: Document,
                ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
              };
            }
          ).axe;
          return (await axe.run(document)).violations.map(
            (v) => `${v.impact} ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
        });
        await page.close();
        if (status !== 200) failures.push(`${name}: status ${status}`);
        if (scrollWidth > innerWidth) failures.push(`${name}: ${scrollWidth} px wide in ${innerWidth} px`);
        for (const v of violations) failures.push(`${name}: ${v}`);
      }
      expect(failures).toEqual([]);
    }, 180_000);
  }
});

describe('the browser search ranks like the API', () => {
  it('puts the confirmed problem and solution above junk discussions and the disputed problem', async () => {
    // The index is rebuilt shortly after the last write re-rendered the disputed problem: wait for every record to be in it.
    const urls = await eventually(async () => {
      const found = await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, RANK_WORD).catch(() => []);
      return found.length >= 6 ? found : null;
    }, 30_000);
    const rank = (id: string) => urls.findIndex((u) => u.includes(id));
    for (const id of [...ranked.confirmed, ...ranked.junk, ...ranked.disputed])
      expect(rank(id), id).toBeGreaterThanOrEqual(0);
    const worstConfirmed = Math.max(...ranked.confirmed.map(rank));
    for (const id of [...ranked.junk, ...ranked.disputed])
      expect(rank(id), `${id} in ${urls.join(' ')}`).toBeGreaterThan(worstConfirmed);
  });

  it('shows the same order on /search, with the standing beside each result', async () => {
    const { page } = await open(`/search?q=${RANK_WORD}`);
    await page.waitForFunction(
      () => /result/.test(document.getElementById('search-status')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    const hrefs = await page
      .locator('#search-results li > a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs[0]).toContain(ranked.confirmed[0]);
    expect(await page.locator('#search-results li').first().textContent()).toContain('Confirmed');
    await page.close();
  });
});
