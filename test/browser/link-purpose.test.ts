/**
 * The lists a reader scans by their links (a screen reader's links list
 * among them) tell their links apart: no two links read the same and lead
 * to different pages (WCAG 2.4.4 and 2.4.9, axe's
 * `identical-links-same-purpose`, which reports such pairs for review), and
 * every link has a name. Real Chromium with axe-core, on the pages of the
 * in-process service (the record fixtures: two solutions of one problem),
 * each request answered by `app.request`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE } from '../helpers/record-fixtures.ts';

const ORIGIN = 'http://reader.test';

let running: InProcessApp | undefined;
let app: Hono<AppEnv>;
let browser: Browser;
let axeSource: string;

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app } = running);
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
