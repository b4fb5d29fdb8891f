/**
 * Builds and publishes the base tier (tiers.ts) in a worker thread of its
 * own, in shards. Pagefind's service holds the whole index it builds in
 * memory until it is closed (3.4–4.1 GiB at 100k pages), so one index of
 * every page would need memory in proportion to the corpus. The base is
 * therefore cut into shards of at most SEARCH_SHARD_PAGES pages (the page
 * list in name order, cut into runs), each its own Pagefind bundle, built by
 * a service of its own, one after another: the build's memory is one shard's.
 * The browser loads the first shard and merges the others with Pagefind's
 * `mergeIndex` (the recent tier is an instance of its own); a page is in
 * exactly one shard.
 *
 * A compaction rebuilds only the shards that changed. Each shard holds a
 * range of the page order (pageKey: type, then id), from its first key to
 * the next shard's; a page belongs to the last shard whose first key is at
 * or before its own (the first shard, for a page before them all). A
 * compaction is told which pages changed since the base (the recent tier's),
 * rebuilds the shards they fall in from the pages now on disk (cutting one
 * that grew past shardPages) and keeps every other shard's bundle and result
 * ids as they are. Ids grow with time, so new records fall in the shard that
 * ends their type: a compaction after writes costs the shards they touched,
 * not the corpus. Shards are never merged (removals leave smaller ones); a
 * full rebuild, a base from before ranges or from another Pagefind, or ids on
 * disk of another base, builds every shard.
 *
 * A base is published whole: the shards it builds are written to a staging
 * folder inside the projections directory, renamed into place as
 * `pagefind/base-<stamp>/` in one step, and the shards it keeps stay in the
 * folders of the bases that built them; `tiers.json`, which names the
 * shards, is switched to them by the next index run. A browser therefore
 * searches either every shard of the old base or every shard of the new one,
 * never a mix; a shard is deleted only once neither the published base nor
 * the one before it names it, so a search already under way keeps finding
 * its chunks.
 *
 * In its thread, the synchronous file work (reading every output file for its
 * content-derived mtime and, for fragments, its result id) never holds up a
 * render pass on the worker's main thread.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { stampStagedFileSync } from '../projections/publish-file.ts';
import { listRecordPages, pageKey, resultIdsByUrl, writeShardIndex, type RecordPageList } from './build-index.ts';
import { MANIFEST_FILE, SEARCH_DIR, UNUSED } from './publish-index.ts';
import { writeStateFile } from './state-file.ts';

/** The base bundle's result id of each page URL, written with each base (tiers.ts reads it). */
const BASE_IDS_FILE = '.pagefind-base-ids.json';
/** Which base is published (written last, after its bundle and ids): what tiers.ts compares its recent set against. */
const BASE_INFO_FILE = '.pagefind-base.json';
/** Where Pagefind writes a base before it is published: inside the projections directory (one file system, so renames), beside the public folders. */
const STAGING_PREFIX = '.pagefind-staging-';
/** A published base's folder under the public search folder. */
const BASE_FOLDER = /^base-[0-9a-z-]+$/;
/** What else the public search folder holds: the recent tier and the tier manifest. */
const NOT_BASE = new Set(['recent', MANIFEST_FILE]);

export interface BaseBuild {
  pages: number;
  shards: number;
  /** Shards kept from the previous base as they were (the rest were built). */
  kept: number;
  /** Pages indexed by this build: those of the shards it built. */
  indexed: number;
  /** Files published (the new base's, all in a folder of its own). */
  written: number;
  /** Files of older bases deleted. */
  removed: number;
}

/** Where a shard's range of the page order starts (pageKey), and how many pages it holds. */
export interface ShardRange {
  first: string;
  pages: number;
}

/** A published base: its stamp, the last index run whose notes it covers (tiers.ts), its page count and its shards' URLs. */
export interface BaseInfo {
  base: string;
  coversRun: number;
  pages: number;
  /**
   * Each shard's folder as a URL path ending in `/`, e.g. `/pagefind/base-…/0/`; the first is the one the browser
   * loads. A shard kept from an earlier base stays in that base's folder.
   */
  shards: string[];
  /** Each shard's range, in the order of `shards` (absent in a base from before ranges: the next compaction is full). */
  ranges?: ShardRange[];
  /** What built the shards (INDEXER): a base built by another Pagefind is built again whole, never mixed. */
  indexer?: string;
}

/**
 * The Pagefind version the shards are built with. Kept shards are never read again, so a base built by another
 * version (whose bundles the browser would merge with new ones) is not kept in part: the next compaction builds every
 * shard.
 */
const INDEXER = `pagefind ${
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('pagefind')), 'utf8')) as { version: string })
    .version
}`;

/** Every file under `root`, relative to it, with `/` separators. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/**
 * Readies one shard Pagefind wrote to `folder` for publishing: drops the
 * prebuilt UIs (/search uses the JS API alone), stamps every file's
 * content-derived mtime (nginx's ETag) and adds each fragment's result id to
 * `ids`. Returns the files it keeps.
 */
function readyShard(folder: string, ids: Map<string, string>): number {
  let kept = 0;
  for (const file of filesUnder(folder)) {
    const full = path.join(folder, file);
    if (UNUSED.test(file)) {
      unlinkSync(full);
      continue;
    }
    const content = stampStagedFileSync(full);
    if (file.startsWith('fragment/'))
      for (const [url, id] of resultIdsByUrl([{ path: file, content }])) ids.set(url, id);
    kept++;
  }
  return kept;
}

/**
 * Deletes every shard but those in `keep` (`base-…/<n>` folders), base folders left empty, and what an unsharded
 * base left directly in the public folder; returns the files deleted.
 */
function removeOlderShards(publicDir: string, keep: Set<string>): number {
  let removed = 0;
  for (const entry of readdirSync(publicDir, { withFileTypes: true })) {
    if (NOT_BASE.has(entry.name)) continue;
    const full = path.join(publicDir, entry.name);
    if (BASE_FOLDER.test(entry.name) && entry.isDirectory()) {
      for (const shard of readdirSync(full)) {
        if (keep.has(`${entry.name}/${shard}`)) continue;
        removed += filesUnder(path.join(full, shard)).length;
        rmSync(path.join(full, shard), { recursive: true, force: true });
      }
      if (readdirSync(full).length === 0) rmSync(full, { recursive: true, force: true });
      continue;
    }
    if (entry.isDirectory() && !['index', 'fragment', 'filter'].includes(entry.name)) continue;
    removed += entry.isDirectory() ? filesUnder(full).length : 1;
    rmSync(full, { recursive: true, force: true });
  }
  return removed;
}

/** The shards the published manifest (tiers.json) names: what browsers are searching now. */
async function publishedShards(publicDir: string): Promise<string[]> {
  const text = await readFile(path.join(publicDir, MANIFEST_FILE), 'utf8').catch(() => null);
  const shards = text === null ? null : (JSON.parse(text) as { base_shards?: unknown }).base_shards;
  return Array.isArray(shards) ? shards.filter((s): s is string => typeof s === 'string') : [];
}

/** `/pagefind/base-x/3/` → `base-x/3`: a shard's folder under the public search folder. */
const shardFolder = (url: string) => url.split('/').slice(2, 4).join('/');

/** The index of the range `key` belongs to: the last whose first key is at or before it (the first range below them all). */
function rangeOf(firsts: string[], key: string): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firsts[mid]! <= key) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** One shard of the base being built: a range kept from the previous base (its index there), or pages [start, end) of the listing to index. */
type PlannedShard =
  | { keep: true; index: number; url: string; range: ShardRange }
  | { keep: false; first: string; start: number; end: number };

/**
 * The previous base's shards that no changed page falls in are kept; every other range is built again from the pages
 * listed in it, cut into runs of at most `shardPages`. A range built again that needs cutting is cut where one type's
 * pages end, too: otherwise the shard ending one type would also start the next, and each batch of new records of
 * the first would push pages of the second out into a shard of their own. With no usable previous base, every page
 * is cut into runs (across types: a small corpus stays one shard).
 */
function planShards(
  all: RecordPageList,
  shardPages: number,
  previous: { info: BaseInfo; ranges: ShardRange[]; changed: Set<string> } | null,
): PlannedShard[] {
  const runs = (start: number, end: number): PlannedShard[] => {
    const planned: PlannedShard[] = [];
    for (let at = start; at < end; at += shardPages)
      planned.push({ keep: false, first: all.keyAt(at), start: at, end: Math.min(at + shardPages, end) });
    return planned;
  };
  if (!previous) return runs(0, all.length);
  const cut = (first: string, start: number, end: number): PlannedShard[] => {
    if (start === end) return [];
    const edges =
      end - start > shardPages ? all.typeStarts.filter((typeStart) => typeStart > start && typeStart < end) : [];
    const bounds = [start, ...edges, end];
    const planned = bounds.slice(1).flatMap((to, i) => runs(bounds[i]!, to));
    // The range keeps its first key (pages that may come between it and its first page are still its own),
    // unless pages now sort before it (the first range's, which holds everything before the others).
    const own = planned[0] as PlannedShard & { keep: false };
    if (first < own.first) own.first = first;
    return planned;
  };
  const firsts = previous.ranges.map((r) => r.first);
  const dirty = new Set<number>();
  for (const key of previous.changed) dirty.add(rangeOf(firsts, key));
  // Where each range's pages start in the listing (both are in key order).
  const starts: number[] = [];
  let at = 0;
  for (let r = 0; r < firsts.length; r++) {
    if (r > 0) while (at < all.length && all.keyAt(at) < firsts[r]!) at++;
    starts.push(r === 0 ? 0 : at);
  }
  const plan: PlannedShard[] = [];
  for (let r = 0; r < firsts.length; r++) {
    const start = starts[r]!;
    const end = r + 1 < firsts.length ? starts[r + 1]! : all.length;
    if (dirty.has(r) || end - start !== previous.ranges[r]!.pages) plan.push(...cut(firsts[r]!, start, end));
    else plan.push({ keep: true, index: r, url: previous.info.shards[r]!, range: previous.ranges[r]! });
  }
  return plan;
}

/**
 * Indexes the record pages, in shards of at most `shardPages`, publishes them as the base tier and writes their
 * result ids. `coversRun`: an index run whose notes were all on disk before this started (tiers.ts). `changed`: the
 * URLs of the pages changed since the published base (the recent tier's): the shards none of them falls in are kept;
 * null builds every shard. Runs in base-thread.ts.
 */
export async function buildBaseTier(
  dir: string,
  coversRun: number,
  shardPages: number,
  changed: string[] | null = null,
): Promise<BaseBuild> {
  if (!Number.isInteger(shardPages) || shardPages < 1) throw new Error(`shardPages must be ≥ 1, not ${shardPages}`);
  const base = `${Date.now()}-${randomBytes(4).toString('hex')}`;
  const folder = `base-${base}`;
  // A first start may index before anything was rendered: no folder yet is an empty corpus, not an error.
  await mkdir(dir, { recursive: true });
  // A staging folder left by a build that died: one base is built at a time (the compaction queue runs one job;
  // the index run builds one itself only when there is no base yet, so nothing to compact).
  for (const name of await readdir(dir))
    if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dir, name), { recursive: true, force: true });
  const staging = path.join(dir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    const publicDir = path.join(dir, SEARCH_DIR);
    const previousInfo = await readBaseInfo(dir);
    const usable =
      changed !== null &&
      previousInfo !== null &&
      previousInfo.indexer === INDEXER &&
      previousInfo.ranges?.length === previousInfo.shards.length &&
      previousInfo.shards.length > 0 &&
      (await shardsExist(dir, previousInfo));
    const changedKeys = new Set((changed ?? []).flatMap((url) => pageKey(url) ?? []));
    const all = await listRecordPages(dir);
    let plan = planShards(
      all,
      shardPages,
      usable ? { info: previousInfo!, ranges: previousInfo!.ranges!, changed: changedKeys } : null,
    );
    const ids = new Map<string, string>();
    if (plan.some((s) => s.keep)) {
      const previousIds = await readBaseIdsFile(dir);
      // Ids of another base (a build that died between its two files) would be wrong for the kept shards.
      if (previousIds?.base !== previousInfo!.base) plan = planShards(all, shardPages, null);
      else {
        const firsts = previousInfo!.ranges!.map((r) => r.first);
        const kept = new Set(plan.flatMap((s) => (s.keep ? [s.index] : [])));
        // A kept shard's pages, and so their result ids, are the previous base's in its range. One entry at a time:
        // at a million pages the parsed file alone is a few hundred MiB.
        for (const url in previousIds.ids) {
          const key = pageKey(url);
          if (key !== null && kept.has(rangeOf(firsts, key))) ids.set(url, previousIds.ids[url]!);
        }
      }
    }
    const kept = plan.filter((s) => s.keep);
    const shards: string[] = [];
    const ranges: ShardRange[] = [];
    let pages = 0;
    let indexed = 0;
    let written = 0;
    let built = 0;
    for (const shard of plan) {
      if (shard.keep) {
        shards.push(shard.url);
        ranges.push(shard.range);
        pages += shard.range.pages;
        continue;
      }
      const name = String(built++);
      const output = path.join(staging, name);
      const count = await writeShardIndex(all.slice(shard.start, shard.end), output);
      // Every page of this run was removed since the listing: Pagefind cannot load an index without pages.
      if (count === 0) {
        await rm(output, { recursive: true, force: true });
        continue;
      }
      pages += count;
      indexed += count;
      written += readyShard(output, ids);
      shards.push(`/${SEARCH_DIR}/${folder}/${name}/`);
      ranges.push({ first: shard.first, pages: count });
    }
    await mkdir(publicDir, { recursive: true });
    if (existsSync(staging) && readdirSync(staging).length > 0) renameSync(staging, path.join(publicDir, folder));
    await writeStateFile(dir, BASE_IDS_FILE, { base, ids: Object.fromEntries(ids) });
    await writeStateFile(dir, BASE_INFO_FILE, {
      base,
      coversRun,
      pages,
      shards,
      ranges,
      indexer: INDEXER,
    } satisfies BaseInfo);
    // The previous base's shards stay (searches under way use them), and so do those the published tiers.json names:
    // until an index run takes a base in, that can still be an older one's (two compactions with no run between).
    const keep = new Set(
      [...shards, ...(previousInfo?.shards ?? []), ...(await publishedShards(publicDir))].map(shardFolder),
    );
    const removed = removeOlderShards(publicDir, keep);
    // The generation list of an unsharded base, whose files removeOlderShards just deleted.
    await rm(path.join(dir, '.pagefind-generation.json'), { force: true });
    return { pages, shards: shards.length, kept: kept.length, indexed, written, removed };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** buildBaseTier in a worker thread started for it. */
export function buildBaseTierInThread(
  dir: string,
  coversRun: number,
  shardPages: number,
  changed: string[] | null = null,
): Promise<BaseBuild> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./base-thread.ts', import.meta.url), {
      workerData: { dir, coversRun, shardPages, changed },
    });
    let result: BaseBuild | null = null;
    let failure: Error | null = null;
    worker.once('message', (message: BaseBuild) => (result = message));
    worker.once('error', (error: Error) => (failure = error));
    worker.once('exit', (code) => {
      if (result) resolve(result);
      else reject(failure ?? new Error(`the base tier's thread exited with code ${code} and no result`));
    });
  });
}

/** The published base, or null when none was built (or it was built before bases were sharded: build one). */
export async function readBaseInfo(dir: string): Promise<BaseInfo | null> {
  const text = await readFile(path.join(dir, BASE_INFO_FILE), 'utf8').catch(() => null);
  const info = text === null ? null : (JSON.parse(text) as Partial<BaseInfo>);
  return info && Array.isArray(info.shards) ? (info as BaseInfo) : null;
}

/** Every shard of the base is on disk (a deleted folder means building the base, or that shard, again). */
export async function shardsExist(dir: string, info: BaseInfo): Promise<boolean> {
  const found = await Promise.all(
    info.shards.map((shard) =>
      readFile(path.join(dir, `${shard.slice(1)}pagefind-entry.json`)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.every(Boolean);
}

/** The published base's result ids file as parsed (URL → id), without copying it into a Map. */
async function readBaseIdsFile(dir: string): Promise<{ base?: string; ids: Record<string, string> } | null> {
  const text = await readFile(path.join(dir, BASE_IDS_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = JSON.parse(text) as { base?: string; ids?: Record<string, string> };
  return { base: parsed.base, ids: parsed.ids ?? {} };
}

/** The published base's result ids by URL, with the stamp of the base they belong to. */
export async function readBaseIds(dir: string): Promise<{ base: string | null; ids: Map<string, string> }> {
  const file = await readBaseIdsFile(dir);
  return { base: file?.base ?? null, ids: new Map(Object.entries(file?.ids ?? {})) };
}
