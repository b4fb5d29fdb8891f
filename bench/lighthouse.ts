/**
 * `npm run lighthouse [-- --shots DIR]`: Lighthouse (mobile: its default
 * emulated phone and simulated slow 4G) in Debian's Chromium against the
 * home, problem, solution and search pages of a fresh stack holding
 * realistic records (test/helpers/reader-records.ts). Prints the four
 * category scores of each page (the median of five runs by performance, as
 * Lighthouse advises for a noisy machine) and exits 1 when any is below 95. With
 * `--shots DIR`, also saves a 390 px wide full-page screenshot of each page
 * in the light and the dark scheme; `--pages solution,search` measures only those.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH, launchBrowser } from '../test/helpers/browser.ts';
import { eventually } from '../test/helpers/client.ts';
import { searchPublished } from '../test/helpers/pagefind.ts';
import { seedReaderRecords } from '../test/helpers/reader-records.ts';
import { createBenchContext } from './lib/context.ts';
import { describeMachine } from './lib/machine.ts';
import { createTemplateDatabase } from './lib/template-database.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const FLOOR = 95;
const RUNS = 5;

const shotsAt = process.argv.indexOf('--shots');
const shotsDir = shotsAt > 0 ? process.argv[shotsAt + 1] : undefined;
const pagesAt = process.argv.indexOf('--pages');
const only = pagesAt > 0 ? new Set(process.argv[pagesAt + 1]!.split(',')) : null;

const template = await createTemplateDatabase();
const { ctx, cleanup } = createBenchContext(describeMachine(null), template.name);
let failed = false;
try {
  // One hop of X-Forwarded-For is trusted, so the seeded reporters count as independent agents.
  const stack = await ctx.startStack({ SEARCH_INDEX_DELAY_MS: '100', TRUSTED_PROXY_HOPS: '1' });
  const records = await seedReaderRecords(stack.base);
  await eventually(
    async () =>
      (await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, records.word).catch(() => [])).length >= 2,
    30_000,
  );
  const pages: [string, string][] = [
    ['home', '/'],
    ['problem', `/problems/${records.problem}`],
    ['solution', `/solutions/${records.best}`],
    ['search', `/search?q=${records.word}`],
  ];

  if (shotsDir) {
    await mkdir(shotsDir, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      const browser = await launchBrowser();
      try {
        for (const [name, url] of pages) {
          const page = await browser.context.newPage();
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize({ width: 390, height: 844 });
          await page.goto(stack.base + url);
          if (name === 'search')
            await page.waitForFunction(
              () => /result/.test(document.getElementById('search-status')?.textContent ?? ''),
              undefined,
              { timeout: 20_000 },
            );
          const file = path.join(shotsDir, `${name}-390-${scheme}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(`screenshot ${file}`);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    }
  }

  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    console.log(`Lighthouse, mobile settings (emulated phone, simulated throttling), ${CHROMIUM_PATH}`);
    console.log(`${'page'.padEnd(10)}${CATEGORIES.map((c) => c.padStart(16)).join('')}`);
    for (const [name, url] of pages.filter(([n]) => !only || only.has(n))) {
      // The median run by performance: one run on a shared machine is noisy.
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const run = await lighthouse(stack.base + url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
        });
        if (!run) throw new Error(`Lighthouse gave no result for ${url}`);
        runs.push(run);
      }
      runs.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
      const result = runs[Math.floor(runs.length / 2)]!;
      const scores = CATEGORIES.map((c) => Math.round((result.lhr.categories[c]?.score ?? 0) * 100));
      const all = runs.map((r) => Math.round((r.lhr.categories.performance?.score ?? 0) * 100)).join(', ');
      console.log(
        `${name.padEnd(10)}${scores.map((s) => String(s).padStart(16)).join('')}   (performance of ${RUNS} runs: ${all}; CPU benchmark index ${Math.round(result.lhr.environment.benchmarkIndex)})`,
      );
      for (const [i, c] of CATEGORIES.entries()) {
        if (scores[i]! >= FLOOR) continue;
        failed = true;
        const category = result.lhr.categories[c]!;
        const missed = category.auditRefs
          .map((ref) => result.lhr.audits[ref.id]!)
          .filter(
            (audit) =>
              audit.score !== null &&
              audit.score < 1 &&
              audit.scoreDisplayMode !== 'informative' &&
              audit.scoreDisplayMode !== 'notApplicable',
          );
        console.log(`  ${c} below ${FLOOR}: ${missed.map((a) => `${a.id} (${a.displayValue ?? a.score})`).join(', ')}`);
        if (c === 'performance') {
          const work =
            (
              result.lhr.audits['mainthread-work-breakdown']?.details as
                | { items?: { groupLabel: string; duration: number }[] }
                | undefined
            )?.items ?? [];
          console.log(`  main thread: ${work.map((w) => `${w.groupLabel} ${Math.round(w.duration)} ms`).join(', ')}`);
        }
      }
    }
  } finally {
    chrome.kill();
  }
} finally {
  await cleanup();
  await template.drop();
}
process.exit(failed ? 1 : 0);
