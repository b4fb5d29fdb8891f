/**
 * What the static-search bench measures around Pagefind: the peak memory of
 * the Pagefind services this process starts, the floor of a base build
 * (Pagefind's own CLI over the same pages, in the same shards), and how long
 * a search takes to show its first result, with Pagefind's own search code
 * over the API and in Chromium on /search.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { arch } from 'node:os';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TierManifest } from '../../site/lib/search/pagefind.ts';
import { listRecordPages } from '../../static-search/build-index.ts';
import { launchBrowser, type Browser } from '../../test/helpers/browser.ts';
import { loadPublished } from '../../test/helpers/pagefind.ts';

/** The binary Pagefind's Node API runs (its platform package, as pagefind/lib/resolveBinary.js finds it). */
const pagefindBinary = () =>
  createRequire(import.meta.url).resolve(`@pagefind/${process.platform}-${arch()}/bin/pagefind_extended`);

const kib = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);

/**
 * The largest VmHWM of this process's Pagefind children, and the largest
 * VmRSS of this process itself (the base's thread: the page list, the result
 * ids), sampled every 200 ms while `work` runs.
 */
export async function withPagefindPeak<T>(
  work: () => Promise<T>,
): Promise<{ result: T; peakMiB: number; processPeakMiB: number }> {
  let peak = 0;
  let own = 0;
  const sample = async () => {
    own = Math.max(own, kib(await readFile('/proc/self/status', 'utf8').catch(() => ''), 'VmRSS'));
    for (const pid of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(pid)) continue;
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      if (!/^Name:\s+pagefind/m.test(status)) continue;
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      peak = Math.max(peak, kib(status, 'VmHWM'));
    }
  };
  const timer = setInterval(() => void sample(), 200);
  try {
    const result = await work();
    return { result, peakMiB: peak / 1024, processPeakMiB: own / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** Bytes of every file under `root`. */
export async function bytesUnder(root: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  return total;
}

/**
 * The floor of a base build: Pagefind's own CLI (the binary its Node API
 * drives) over the same record pages, cut into the same shards, each shard a
 * folder of hard links to the pages (made before the clock starts), indexed
 * into a scratch folder. Time summed over the shards; memory the largest
 * shard's peak. With `maxShards`, only the first shards are indexed and the
 * time is scaled to every page (`scaled` says so).
 */
export async function pagefindCliFloor(
  dir: string,
  shardPages: number,
  maxShards = Number.POSITIVE_INFINITY,
): Promise<{ seconds: number; peakMiB: number; shards: number; scaled: boolean }> {
  const binary = pagefindBinary();
  const all = await listRecordPages(dir);
  const pages = all.slice(0, Math.min(all.length, maxShards * shardPages));
  let shards = 0;
  const scratch = path.join(path.dirname(dir), `.bench-pagefind-floor-${randomBytes(4).toString('hex')}`);
  let seconds = 0;
  let peakKiB = 0;
  try {
    for (let start = 0, n = 0; start < pages.length; start += shardPages, n++) {
      const site = path.join(scratch, `site-${n}`);
      for (const page of pages.slice(start, start + shardPages)) {
        const target = path.join(site, `${page.url.slice(1)}.html`);
        await mkdir(path.dirname(target), { recursive: true });
        await link(page.file, target);
      }
      const started = performance.now();
      const child = spawn(
        binary,
        ['--site', site, '--output-path', path.join(scratch, `out-${n}`), '--force-language', 'en', '--quiet'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setInterval(() => {
        void readFile(`/proc/${child.pid}/status`, 'utf8')
          .then((status) => (peakKiB = Math.max(peakKiB, kib(status, 'VmHWM'))))
          .catch(() => undefined);
      }, 200);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearInterval(timer);
      if (code !== 0) throw new Error(`pagefind exited ${code}: ${stderr}`);
      seconds += (performance.now() - started) / 1000;
      shards++;
      await rm(path.join(scratch, `site-${n}`), { recursive: true, force: true });
      await rm(path.join(scratch, `out-${n}`), { recursive: true, force: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const scaled = pages.length < all.length;
  return { seconds: scaled ? (seconds * all.length) / pages.length : seconds, peakMiB: peakKiB / 1024, shards, scaled };
}

/**
 * Milliseconds from nothing loaded to the first result's data, with
 * Pagefind's own search code over the API (a fresh module each time, so
 * nothing is cached), as /search shows it: the manifest, the recent tier's
 * or every shard's entry and metadata, the word's chunks, the first fragment.
 */
export async function firstResultMs(base: string, dir: string, term: string): Promise<number> {
  const started = performance.now();
  const manifest = (await (await fetch(`${base}/pagefind/tiers.json`)).json()) as TierManifest;
  let early: Promise<number> | null = null;
  const results = await loadPublished(base, dir, manifest).search(term, {}, (recent) => {
    if (recent.length > 0) early = recent[0]!.data().then(() => performance.now() - started);
  });
  if (early !== null) return early;
  if (results.length === 0) throw new Error(`nothing found for ${term}`);
  await results[0]!.data();
  return performance.now() - started;
}

/**
 * Milliseconds from opening /search?q=… in Chromium (a fresh profile, so an
 * empty cache) to its first result on the page.
 */
export async function browserFirstResultMs(base: string, term: string): Promise<number> {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const started = performance.now();
    await page.goto(`${base}/search?q=${encodeURIComponent(term)}`);
    await page.waitForSelector('#search-results li > a', { timeout: 60_000 });
    return performance.now() - started;
  } finally {
    await browser.close();
  }
}

/**
 * Whether /search, opened in a new page of `browser` (its cache kept, as a person searching again has
 * it), shows the record `id` for `word`: true once its link is on the page, false when the whole answer
 * came without it.
 */
export async function browserShows(browser: Browser, base: string, word: string, id: string): Promise<boolean> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${base}/search?q=${encodeURIComponent(word)}`);
    const link = `#search-results li > a[href$="/${id}"]`;
    await page.waitForFunction(
      (selector) => {
        if (document.querySelector(selector) !== null) return true;
        const status = document.getElementById('search-status')?.textContent ?? '';
        return status !== '' && !status.startsWith('Searching');
      },
      link,
      { timeout: 30_000 },
    );
    return (await page.$(link)) !== null;
  } finally {
    await page.close();
  }
}
