/**
 * The static search index in two tiers, so the cost of indexing a write does
 * not grow with the corpus:
 *
 * - the base tier (`/pagefind/base-<stamp>/<n>/`): every record page, in
 *   shards of at most `shardPages` (base-tier.ts), brought up to date in the
 *   background (a compaction, `compactSearchIndex`, a job of its own in the
 *   worker: worker/jobs/search-index.ts) when the recent tier passes
 *   COMPACT_AT pages or after a full rebuild: it builds again only the
 *   shards the recent pages fall in (every shard after a full rebuild);
 *   built by the index run itself only when there is none;
 * - the recent tier (`/pagefind/recent/`): the pages of records rendered since
 *   the base was built, rebuilt by every run, so a run costs what changed.
 *
 * Renders note the records they wrote in `.pagefind-pending/` (one file per
 * pass, written atomically, so several workers never clash, named by the
 * time it was written); a run takes those notes, adds them to the recent set
 * and deletes only the notes it read. The browser opens the base and the
 * recent tier as Pagefind instances of their own (site/lib/search/pagefind.ts),
 * ranks their results together, and drops base results that the
 * recent tier supersedes (a newer version, or a removed record):
 * `/pagefind/tiers.json` lists their result ids, read from the base bundle's
 * fragments when it was built.
 *
 * A compaction never holds up the runs: they go on indexing writes into the
 * recent tier while it builds. Each run has a number, and the recent set
 * remembers which run took each page's latest note. A compaction starts by
 * reading the number of the last finished run: every note that run took was
 * written (after its page) before the compaction started, so the base reads
 * that page or a newer version. The first run that sees the new base drops
 * those pages from the recent set and keeps the rest (a page rendered during
 * the compaction stays in the recent tier until a later base). No clocks.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { RecordRef } from '../core/types.ts';
import { writeProjectionFile } from '../projections/publish-file.ts';
import {
  buildBaseTier,
  buildBaseTierInThread,
  readBaseIds,
  readBaseInfo,
  shardsExist,
  type BaseBuild,
  type BaseInfo,
} from './base-tier.ts';
import { buildSearchIndex, hasAtMostPages, INDEXED_TYPES, recordPageOf, resultIdsByUrl } from './build-index.ts';
import {
  createFragmentMemo,
  createPageReader,
  createPublishedMemo,
  type FragmentMemo,
  type PageReader,
  type PublishedMemo,
} from './run-memo.ts';
import { MANIFEST_FILE, publishSearchIndex, RECENT_TIER, SEARCH_DIR, type PublishCounts } from './publish-index.ts';
import { writeStateFile } from './state-file.ts';

/** Recent pages past which a run asks for a compaction (a new base, after which the recent tier starts over). */
export const COMPACT_AT = 2000;
/** Pages per base shard unless told otherwise (the worker passes SEARCH_SHARD_PAGES, core/config.ts). */
export const SHARD_PAGES = 100_000;

export interface TierOptions {
  compactAt?: number;
  shardPages?: number;
}

const PENDING_DIR = '.pagefind-pending';
/** Every record: a full rebuild asks for a compaction instead of listing them all. */
const ALL = 'all';
/** The recent set, beside (not inside) the public directory. */
const STATE_FILE = '.pagefind-tiers.json';
const MANIFEST = `${SEARCH_DIR}/${MANIFEST_FILE}`;

interface TierState {
  /** The number of the last finished run. */
  run: number;
  /** Record page URLs rendered since the base was built, each with the run that took its latest note. */
  recent: Record<string, number>;
  /** Which base the set was last reconciled with (its stamp, base-tier.ts). */
  base: string | null;
  /** The run that took a full rebuild's note, while no base has covered it (null: none). */
  wantBaseRun: number | null;
}

/**
 * The base's ids, kept in memory between runs: read once per base, not once
 * per run (at 100k pages the file is ~100k entries). Per directory, so that
 * runs over two directories in one process (the bench) do not reload it each time.
 */
const baseIdsCache = new Map<string, { base: string | null; ids: Map<string, string> }>();

async function baseIdsOf(dir: string, base: string): Promise<Map<string, string>> {
  let cached = baseIdsCache.get(dir);
  if (cached?.base !== base) baseIdsCache.set(dir, (cached = await readBaseIds(dir)));
  return cached.ids;
}

/** The recent tier's memos (run-memo.ts), kept between runs, per directory like the base's ids. */
const runMemos = new Map<string, { pages: PageReader; fragments: FragmentMemo; published: PublishedMemo }>();

function runMemosOf(dir: string) {
  let memos = runMemos.get(dir);
  // A worker indexes one directory; a process that indexes many (tests, benches) keeps the last few.
  if (!memos && runMemos.size >= 4) runMemos.clear();
  if (!memos)
    runMemos.set(
      dir,
      (memos = { pages: createPageReader(), fragments: createFragmentMemo(), published: createPublishedMemo() }),
    );
  return memos;
}

/** What the browser reads first: whether to merge the recent tier, and which base results it supersedes. */
export interface TierManifest {
  /** Pages in the base; with none, Pagefind cannot load it, and there is nothing to search. */
  base_pages: number;
  /** The base's shards, each a Pagefind bundle's folder (`/pagefind/base-…/0/`): the first is loaded, the rest merged. */
  base_shards: string[];
  recent: boolean;
  superseded: string[];
}

export interface TierRun extends PublishCounts {
  tier: 'base' | 'recent';
  pages: number;
  /** The recent tier is past COMPACT_AT or a full rebuild asked for a new base: a compaction should run. */
  compact: boolean;
}

/** Notes records a render pass wrote (or removed), or `'all'` after a full rebuild. */
export async function notePendingRecords(dir: string, refs: RecordRef[] | typeof ALL): Promise<void> {
  const urls = refs === ALL ? ALL : refs.filter((r) => INDEXED_TYPES.has(r.type)).map((r) => recordPageOf(dir, r).url);
  if (urls !== ALL && urls.length === 0) return;
  const folder = path.join(dir, PENDING_DIR);
  await mkdir(folder, { recursive: true });
  const name = `${Date.now()}-${randomBytes(6).toString('hex')}`;
  await writeStateFile(folder, `${name}.json`, urls);
}

async function takePending(dir: string): Promise<{ files: string[]; urls: Set<string>; all: boolean }> {
  const folder = path.join(dir, PENDING_DIR);
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const urls = new Set<string>();
  let all = false;
  for (const name of names) {
    const parsed: unknown = JSON.parse(await readFile(path.join(folder, name), 'utf8'));
    if (parsed === ALL) all = true;
    else if (Array.isArray(parsed)) for (const url of parsed) if (typeof url === 'string') urls.add(url);
  }
  return { files: names.map((n) => path.join(folder, n)), urls, all };
}

async function readState(dir: string): Promise<TierState> {
  const text = await readFile(path.join(dir, STATE_FILE), 'utf8').catch(() => null);
  const parsed = text === null ? null : (JSON.parse(text) as Partial<TierState> & { recent?: unknown });
  // A state from before runs were numbered (a list of URLs, no base stamp): the next run builds a base.
  const recent = Array.isArray(parsed?.recent)
    ? Object.fromEntries(parsed.recent.map((url: string) => [url, 0]))
    : ((parsed?.recent as Record<string, number> | undefined) ?? {});
  return { run: parsed?.run ?? 0, recent, base: parsed?.base ?? null, wantBaseRun: parsed?.wantBaseRun ?? null };
}

async function writeState(dir: string, state: TierState): Promise<void> {
  await writeStateFile(dir, STATE_FILE, state);
}

async function publishManifest(dir: string, manifest: TierManifest): Promise<void> {
  await writeProjectionFile(dir, MANIFEST, Buffer.from(`${JSON.stringify(manifest)}\n`));
}

/**
 * A compaction: a new base, published with its ids, in which the shards the recent tier's pages fall in are built
 * again and the others kept (base-tier.ts); the next index run reconciles the recent tier with it.
 */
export async function compactSearchIndex(
  dir: string,
  { shardPages = SHARD_PAGES }: TierOptions = {},
): Promise<BaseBuild> {
  // Read before any page is: every note of that run was written before this line.
  const { run, recent, wantBaseRun } = await readState(dir);
  // The pages changed since the base: only the shards they fall in are built again (all of them after a full rebuild).
  const changed = wantBaseRun === null ? Object.keys(recent) : null;
  // In its own thread: a shard of 100k pages takes minutes, and renders share this event loop.
  return buildBaseTierInThread(dir, run, shardPages, changed);
}

/**
 * A base built by an index run, which finds none. Up to `compactAt` pages it is built on this thread: it costs what
 * a recent tier of as many pages costs, which runs here too, and a thread of its own costs more CPU to start (loading
 * its modules again) than such a build. A larger corpus is built in a thread, as a compaction is.
 */
async function buildFirstBase(dir: string, run: number, shardPages: number, compactAt: number): Promise<BaseBuild> {
  if (await hasAtMostPages(dir, compactAt)) return buildBaseTier(dir, run, shardPages);
  return buildBaseTierInThread(dir, run, shardPages);
}

/**
 * One index run: the recent tier from what changed since the base. With no
 * base yet (or an empty one: Pagefind cannot load an index without pages),
 * it builds the base itself first.
 */
export async function updateSearchIndex(
  dir: string,
  { compactAt = COMPACT_AT, shardPages = SHARD_PAGES }: TierOptions = {},
): Promise<TierRun> {
  const pending = await takePending(dir);
  const state = await readState(dir);
  state.run++;
  for (const url of pending.urls) state.recent[url] = state.run;
  if (pending.all) state.wantBaseRun = state.run;

  let info = await readBaseInfo(dir);
  let tier: TierRun['tier'] = 'recent';
  let baseCounts: PublishCounts | null = null;
  if (!info || info.pages === 0 || !(await shardsExist(dir, info))) {
    // This run's notes were written before the base starts reading pages: it covers them.
    const built = await buildFirstBase(dir, state.run, shardPages, compactAt);
    baseCounts = { written: built.written, unchanged: 0, removed: built.removed };
    info = (await readBaseInfo(dir))!;
    tier = 'base';
  }
  if (info.base !== state.base) reconcile(state, info);

  const urls = Object.keys(state.recent).sort();
  let counts: PublishCounts = { written: 0, unchanged: 0, removed: 0 };
  let pages = 0;
  if (urls.length > 0) {
    const memos = runMemosOf(dir);
    const built = await buildSearchIndex(
      urls.map((url) => ({ url, file: path.join(dir, `${url.slice(1)}.html`) })),
      memos.pages,
    );
    pages = built.pages;
    if (built.pages > 0) counts = await publishSearchIndex(dir, built.files, RECENT_TIER, memos.published);
    const baseIds = await baseIdsOf(dir, info.base);
    // A page unchanged since the base has the same id in both tiers: it stays (the browser shows it once).
    const inRecent = new Set(resultIdsByUrl(built.files, memos.fragments).values());
    const superseded = urls.flatMap((url) => {
      const id = baseIds.get(url);
      return id && !inRecent.has(id) ? [id] : [];
    });
    await publishManifest(dir, {
      base_pages: info.pages,
      base_shards: info.shards,
      recent: built.pages > 0,
      superseded,
    });
  } else {
    await publishManifest(dir, { base_pages: info.pages, base_shards: info.shards, recent: false, superseded: [] });
    await rm(path.join(dir, RECENT_TIER.dir), { recursive: true, force: true });
    await rm(path.join(dir, RECENT_TIER.generationFile), { force: true });
  }
  await writeState(dir, state);
  // Only the notes this run read: later ones stay for the next run.
  await Promise.all(pending.files.map((file) => rm(file, { force: true })));
  const compact = state.wantBaseRun !== null || urls.length > compactAt;
  return tier === 'base' ? { tier, pages: info.pages, ...baseCounts!, compact } : { tier, pages, ...counts, compact };
}

export interface SearchIndexRun extends TierRun {
  ms: number;
}

/** One index run, timed: what the worker's search-index job (worker/jobs/search-index.ts) and the benches run. */
export async function rebuildSearchIndex(dir: string, options?: TierOptions): Promise<SearchIndexRun> {
  const started = performance.now();
  const run = await updateSearchIndex(dir, options);
  return { ...run, ms: Math.round(performance.now() - started) };
}

/** A new base is published: pages whose notes it covers are in it, and so is a full rebuild it covers. */
function reconcile(state: TierState, info: BaseInfo): void {
  state.recent = Object.fromEntries(Object.entries(state.recent).filter(([, run]) => run > info.coversRun));
  if (state.wantBaseRun !== null && state.wantBaseRun <= info.coversRun) state.wantBaseRun = null;
  state.base = info.base;
}
