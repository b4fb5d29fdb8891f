/**
 * The static search at 1k and 100k records (BENCH_STATIC_SEARCH_SIZES), and
 * at a size already seeded and rebuilt (BENCH_STATIC_SEARCH_REBUILT_DIR and
 * _DATABASE, e.g. 1M records). At each size: seed and render every record
 * (the rebuild), or take the rebuilt folder; build the base tier (time,
 * shards, bytes, the Pagefind services' peak RSS) beside its floor, Pagefind's
 * own CLI over the same pages in the same shards; start a worker, then write
 * problems one at a time and time from the receipt until Pagefind's own
 * search code (every shard and the recent tier, over the API) finds each
 * one's unique word; then the time a search takes to show its first result,
 * with Pagefind's code over the API and in Chromium on /search. Last, one
 * index run is timed directly over each size's directory in alternating
 * rounds, and one compaction after the writes beside the full base build. The baseline of each size's search figures is the same figure at
 * the smallest size, in this run.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadHtmlRenderer } from '../projections/html.ts';
import { readBaseInfo } from '../static-search/base-tier.ts';
import { compactSearchIndex, notePendingRecords, rebuildSearchIndex } from '../static-search/tiers.ts';
import { admit, send } from '../test/helpers/client.ts';
import { searchPublished } from '../test/helpers/pagefind.ts';
import { launchBrowser } from '../test/helpers/browser.ts';
import { rebuildAll } from '../worker/jobs/rebuild.ts';
import {
  browserFirstResultMs,
  browserShows,
  bytesUnder,
  firstResultMs,
  pagefindCliFloor,
  withPagefindPeak,
} from './lib/pagefind.ts';
import { problemContent } from './lib/seed.ts';
import { round, roundAll, summarize, type LatencySummary } from './lib/stats.ts';
import type { Bench, Comparison } from './lib/types.ts';
import { seedRecords } from './seed/seed-records.ts';

const SIZES = (process.env.BENCH_STATIC_SEARCH_SIZES ?? '1000,100000').split(',').filter(Boolean).map(Number);
/**
 * A projections folder rebuilt (`npm run ops -- rebuild`) from a seeded
 * database (`npm run seed -- --records 1000000`), and that database's name:
 * measured after SIZES, without seeding and rendering it here. The stack's
 * database is a clone of that one (the bench writes to it); the folder is
 * used in place: its base is built there, and the written problems' pages
 * join it.
 */
const REBUILT_DIR = process.env.BENCH_STATIC_SEARCH_REBUILT_DIR;
const REBUILT_DATABASE = process.env.BENCH_STATIC_SEARCH_REBUILT_DATABASE;
/**
 * With it set, a base an earlier run built in BENCH_STATIC_SEARCH_REBUILT_DIR is searched as it is (at 1M
 * its build takes about half an hour): the writes, searches and index runs are measured, the base's build
 * and the compaction are not.
 */
const REUSE_BASE = process.env.BENCH_STATIC_SEARCH_REUSE_BASE === '1';
/**
 * Shards the floor indexes with Pagefind's CLI, when set: its time is then
 * scaled to every page (at 1M, the floor over every shard takes as long as
 * the build itself).
 */
const FLOOR_SHARDS = process.env.BENCH_STATIC_SEARCH_FLOOR_SHARDS
  ? Number(process.env.BENCH_STATIC_SEARCH_FLOOR_SHARDS)
  : undefined;
/** SEARCH_SHARD_PAGES of every size's stack, when set (the service's default otherwise). */
const SHARD_PAGES = process.env.BENCH_STATIC_SEARCH_SHARD_PAGES;
const WRITES = 10;
/** Writes after those, each watched in Chromium until /search shows it. */
const BROWSER_WRITES = 5;
const TIMEOUT_MS = 30_000;
/** Timed index runs per size, in rounds alternating between the sizes. */
const RUN_ROUNDS = 10;
/** Words the seeded corpus holds in many records, searched beside each size's own written words. */
const CORPUS_WORDS = ['timeout', 'postgresql'];

interface Measured {
  records: number;
  base: { ms: number; pages: number; shards: number; bytes: number; peakMiB: number; processPeakMiB: number };
  floor: { seconds: number; peakMiB: number; shards: number; scaled: boolean };
  /** Receipt to Pagefind's own code over the API finding it (every tier's answer, on one thread). */
  found: LatencySummary;
  /** Receipt to /search in Chromium showing it (the recent tier answers before the base's shards). */
  foundInBrowser: LatencySummary;
  first: LatencySummary;
  browserFirst: LatencySummary;
  dir: string;
  shardPages: number;
}

/**
 * A base over every page, as after a full rebuild: the rebuild's note is
 * taken first (a run with no base builds the base itself); with a base
 * already there (a rebuilt folder measured before), a compaction builds the
 * new one and the run after it takes it in.
 */
async function buildBase(dir: string, shardPages: number): Promise<number> {
  await notePendingRecords(dir, 'all');
  const first = await rebuildSearchIndex(dir, { shardPages });
  if (first.tier === 'base') return first.ms;
  const started = performance.now();
  await compactSearchIndex(dir, { shardPages });
  const ms = performance.now() - started;
  await rebuildSearchIndex(dir, { shardPages });
  return ms;
}

const floorLabel = (floor: Measured['floor']) =>
  floor.scaled
    ? `the Pagefind CLI over the first ${floor.shards} shards, scaled to every page`
    : 'the Pagefind CLI over the same pages, same shards';

export const staticSearchTiers: Bench = {
  name: 'static-search',
  title:
    'base tier build vs the Pagefind CLI, write → found and first result on /search (every shard and the recent tier), one index run; each size against the smallest in the same run',
  budgetSeconds: 7200,
  async run(ctx) {
    const measured: Measured[] = [];
    const sizes: (number | 'rebuilt')[] = [...SIZES, ...(REBUILT_DIR ? (['rebuilt'] as const) : [])];
    if (REBUILT_DIR && !REBUILT_DATABASE) throw new Error('BENCH_STATIC_SEARCH_REBUILT_DIR needs _DATABASE too');
    const settings = { SEARCH_INDEX_DELAY_MS: '200', ...(SHARD_PAGES ? { SEARCH_SHARD_PAGES: SHARD_PAGES } : {}) };
    for (const size of sizes) {
      const stack =
        size === 'rebuilt'
          ? await ctx.startStack(
              { ...settings, PROJECTIONS_DIR: REBUILT_DIR! },
              { worker: false, templateDatabase: REBUILT_DATABASE },
            )
          : await ctx.startStack(settings, { worker: false });
      const dir = stack.config.PROJECTIONS_DIR;
      if (size !== 'rebuilt') {
        await seedRecords(stack.pool, { records: size });
        await rebuildAll(stack.pool, await loadHtmlRenderer(stack.config.ASTRO_ENTRY), dir);
      }
      const shardPages = stack.config.SEARCH_SHARD_PAGES;
      const reused = size === 'rebuilt' && REUSE_BASE ? await readBaseInfo(dir) : null;
      const built = reused
        ? { result: Number.NaN, peakMiB: Number.NaN, processPeakMiB: Number.NaN }
        : await withPagefindPeak(() => buildBase(dir, shardPages));
      const info = (await readBaseInfo(dir))!;
      const records = size === 'rebuilt' ? Math.round(info.pages / 1000) * 1000 : size;
      const base = {
        ms: built.result,
        pages: info.pages,
        shards: info.shards.length,
        bytes: await bytesUnder(path.join(dir, 'pagefind', `base-${info.base}`)),
        peakMiB: built.peakMiB,
        processPeakMiB: built.processPeakMiB,
      };
      ctx.log(
        reused
          ? `${records}: base tier of ${base.pages} pages in ${base.shards} shards, ${round(base.bytes / 2 ** 20, 1)} MiB, built by an earlier run and reused (BENCH_STATIC_SEARCH_REUSE_BASE)`
          : `${records}: base tier of ${base.pages} pages in ${base.shards} shards in ${round(base.ms / 1000, 1)} s, ${round(base.bytes / 2 ** 20, 1)} MiB, Pagefind peak RSS ${round(base.peakMiB, 0)} MiB (this process: ${round(base.processPeakMiB, 0)} MiB)`,
      );
      const floor = reused
        ? { seconds: Number.NaN, peakMiB: Number.NaN, shards: 0, scaled: false }
        : await pagefindCliFloor(dir, shardPages, FLOOR_SHARDS);
      if (!reused)
        ctx.log(
          `${records}: floor, the Pagefind CLI over the same pages in the same shards: ${round(floor.seconds, 1)} s${floor.scaled ? ` (its first ${floor.shards} shards, scaled to every page)` : ''}, peak RSS ${round(floor.peakMiB, 0)} MiB`,
        );
      await stack.startWorker();
      const agent = await admit(stack.base);
      const run = randomBytes(3).toString('hex');
      const found: number[] = [];
      const words: string[] = [];
      const write = async (i: number) => {
        const word = `zqt${run}x${i}`;
        words.push(word);
        const created = await send(stack.base, agent, 'POST', '/api/problems', {
          ...problemContent(run, i),
          title: `Tier bench ${word} watcher`,
        });
        if (created.status !== 201) throw new Error(`the write answered ${created.status}`);
        return { word, id: created.body.resource.id as string, receiptAt: performance.now() };
      };
      for (let i = 0; i < WRITES; i++) {
        const { word, id, receiptAt } = await write(i);
        for (;;) {
          const urls = await searchPublished(stack.base, dir, word).catch(() => []);
          if (urls.some((url) => url.includes(id))) break;
          if (performance.now() - receiptAt > TIMEOUT_MS)
            throw new Error(`write ${i} not found after ${TIMEOUT_MS} ms`);
          await new Promise((r) => setTimeout(r, 20));
        }
        found.push(performance.now() - receiptAt);
      }
      // The same in Chromium, as a person sees it: /search opened again until the new record is on it.
      const foundInBrowser: number[] = [];
      const browser = await launchBrowser();
      try {
        for (let i = WRITES; i < WRITES + BROWSER_WRITES; i++) {
          const { word, id, receiptAt } = await write(i);
          for (;;) {
            if (await browserShows(browser, stack.base, word, id)) break;
            if (performance.now() - receiptAt > TIMEOUT_MS)
              throw new Error(`write ${i} not shown after ${TIMEOUT_MS} ms`);
          }
          foundInBrowser.push(performance.now() - receiptAt);
        }
      } finally {
        await browser.close();
      }
      // A word of a written page (in the recent tier) and words of many base pages.
      const queries = [words[0]!, ...CORPUS_WORDS];
      const first: number[] = [];
      for (let i = 0; i < 3; i++) for (const q of queries) first.push(await firstResultMs(stack.base, dir, q));
      const browserFirst: number[] = [];
      for (const q of queries) browserFirst.push(await browserFirstResultMs(stack.base, q));
      // The worker stops: from here only the timed runs below write this index.
      await stack.stopWorker();
      const m: Measured = {
        records,
        base,
        floor,
        found: summarize(found),
        foundInBrowser: summarize(foundInBrowser),
        first: summarize(first),
        browserFirst: summarize(browserFirst),
        dir,
        shardPages,
      };
      measured.push(m);
      ctx.log(
        `${records}: write → found p50 ${round(m.found.p50)} ms, p99 ${round(m.found.p99)} ms (Pagefind over the API); shown on /search in Chromium p50 ${round(m.foundInBrowser.p50)} ms, max ${round(m.foundInBrowser.max)} ms`,
      );
      ctx.log(
        `${records}: first result p50 ${round(m.first.p50)} ms, max ${round(m.first.max)} ms (Pagefind over the API); in Chromium p50 ${round(m.browserFirst.p50)} ms, max ${round(m.browserFirst.max)} ms (${queries.map((q, i) => `${i === 0 ? 'a written word' : q} ${round(browserFirst[i]!)} ms`).join(', ')})`,
      );
      // The stack is closed after the bench (ctx.startStack deferred it), so its directory is still there for the runs below.
    }
    // One index run, timed directly, over each size's directory in turn (the
    // recent tier holds the written pages, whatever the corpus): alternating
    // rounds in this one process, so load and heap are the same for every size.
    const timed = new Map<number, { ms: number; pages: number }[]>(measured.map((m) => [m.records, []]));
    for (let i = 0; i < RUN_ROUNDS; i++) {
      for (const m of measured) {
        // A record that is not there (a removal), sorting after every problem: in the shard the writes already fall in.
        await notePendingRecords(m.dir, [{ type: 'problem', id: `prb_${'z'.repeat(26)}` }]);
        const r = await rebuildSearchIndex(m.dir);
        timed.get(m.records)!.push({ ms: r.ms, pages: r.pages });
      }
    }
    // A compaction after the writes (the recent tier holds them): only the shards they fall in are built again.
    const compacted = new Map<number, { ms: number; shards: number; kept: number; indexed: number }>();
    for (const m of measured) {
      // A reused base has no build of this run to compare a compaction with.
      if (Number.isNaN(m.base.ms)) continue;
      const started = performance.now();
      const built = await compactSearchIndex(m.dir, { shardPages: m.shardPages });
      const ms = performance.now() - started;
      await rebuildSearchIndex(m.dir, { shardPages: m.shardPages });
      compacted.set(m.records, { ms, shards: built.shards, kept: built.kept, indexed: built.indexed });
      ctx.log(
        `${m.records}: compaction after ${WRITES} writes: ${built.indexed} pages in ${built.shards - built.kept} of ${built.shards} shards built, ${built.kept} kept, in ${round(ms / 1000, 2)} s (the full base: ${round(m.base.ms / 1000, 1)} s)`,
      );
    }
    const results = measured.map((m) => ({
      ...m,
      compaction: compacted.get(m.records) ?? { ms: Number.NaN, shards: 0, kept: 0, indexed: 0 },
      runMs: summarize(timed.get(m.records)!.map((t) => t.ms)),
      runPages: summarize(timed.get(m.records)!.map((t) => t.pages)),
    }));
    for (const r of results)
      ctx.log(`${r.records}: one recent-tier run p50 ${round(r.runMs.p50)} ms over ${round(r.runPages.p50)} pages`);
    const small = results[0]!;
    const smallLabel = `${small.records / 1000}k records, same run`;
    const comparisons: Comparison[] = [];
    for (const r of results) {
      const k = `${r.records / 1000}k`;
      comparisons.push(
        {
          metric: `base tier build ${k}, time`,
          unit: 's',
          value: r.base.ms / 1000,
          baselineLabel: floorLabel(r.floor),
          baseline: r.floor.seconds,
          better: 'lower',
        },
        {
          metric: `base tier build ${k}, Pagefind peak RSS`,
          unit: 'MiB',
          value: r.base.peakMiB,
          baselineLabel: 'the Pagefind CLI, largest shard',
          baseline: r.floor.peakMiB,
          better: 'lower',
        },
        {
          metric: `compaction after ${WRITES} writes ${k}, time`,
          unit: 's',
          value: r.compaction.ms / 1000,
          baselineLabel: 'the full base build, same run',
          baseline: r.base.ms / 1000,
          better: 'lower',
        },
        {
          metric: `write → found ${k}, p50`,
          unit: 'ms',
          value: r.found.p50,
          baselineLabel: smallLabel,
          baseline: small.found.p50,
          better: 'lower',
        },
        {
          metric: `write → shown on /search in Chromium ${k}, p50`,
          unit: 'ms',
          value: r.foundInBrowser.p50,
          baselineLabel: smallLabel,
          baseline: small.foundInBrowser.p50,
          better: 'lower',
        },
        {
          metric: `first result ${k} (Pagefind over the API), p50`,
          unit: 'ms',
          value: r.first.p50,
          baselineLabel: smallLabel,
          baseline: small.first.p50,
          better: 'lower',
        },
        {
          metric: `first result ${k} in Chromium, p50`,
          unit: 'ms',
          value: r.browserFirst.p50,
          baselineLabel: smallLabel,
          baseline: small.browserFirst.p50,
          better: 'lower',
        },
        {
          metric: `one index run ${k}, p50`,
          unit: 'ms',
          value: r.runMs.p50,
          baselineLabel: smallLabel,
          baseline: small.runMs.p50,
          better: 'lower',
        },
      );
    }
    return {
      // A reused base has no build or compaction figures in this run.
      comparisons: comparisons.filter((c) => Number.isFinite(c.value) && Number.isFinite(c.baseline)),
      details: Object.fromEntries(
        results.map((r) => [
          `records_${r.records}`,
          {
            base: roundAll(r.base),
            floor: roundAll(r.floor),
            foundMs: roundAll(r.found),
            foundInBrowserMs: roundAll(r.foundInBrowser),
            firstResultMs: roundAll(r.first),
            browserFirstResultMs: roundAll(r.browserFirst),
            runMs: roundAll(r.runMs),
            runPages: roundAll(r.runPages),
            compaction: roundAll(r.compaction),
          },
        ]),
      ),
      notes: [
        'Targets: write → found p50 ≤ 2 s at every size (as /search in Chromium shows it: the recent tier answers before the base shards); one index run within 2x of the smallest size; the base build within its floor, its memory bounded by a shard. Runs are batched with a 200 ms delay.',
        `First result: ${CORPUS_WORDS.join(', ')} and a written word, three times each with a fresh Pagefind module, once each in a fresh Chromium profile.`,
        `Index runs: ${RUN_ROUNDS} rounds alternating between the sizes, after every size was written.`,
        `Compaction: after the ${WRITES} writes and the index runs, one per size, beside the full base build of the same size.`,
      ],
    };
  },
};
