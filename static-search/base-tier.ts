/**
 * Builds and publishes the base tier (tiers.ts) in a worker thread of its
 * own, in shards. Pagefind's service holds the whole index it builds in
 * memory until it is closed (3.4–4.1 GiB at 100k pages), so one index of
 * every page would need memory in proportion to the corpus. The base is
 * therefore cut into shards of at most SEARCH_SHARD_PAGES pages (the page
 * list in name order, cut into runs), each its own Pagefind bundle, built by
 * a service of its own, one after another: the build's memory is one shard's.
 * The browser loads the first shard and merges the others (and the recent
 * tier) with Pagefind's `mergeIndex`; a page is in exactly one shard.
 *
 * A base is published whole, in a folder of its own
 * (`pagefind/base-<stamp>/<n>/`): the shards are written to a staging folder
 * inside the projections directory and that folder is renamed into place in
 * one step, and `tiers.json`, which names the shards, is switched to them by
 * the next index run. A browser therefore searches either every shard of the
 * old base or every shard of the new one, never a mix; the previous base is
 * deleted only when the next one is published, so a search already under way
 * keeps finding its chunks.
 *
 * In its thread, the synchronous file work (reading every output file for its
 * content-derived mtime and, for fragments, its result id) never holds up a
 * render pass on the worker's main thread.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { stampStagedFileSync } from '../projections/publish-file.ts';
import { listRecordPages, resultIdsByUrl, writeShardIndex } from './build-index.ts';
import { SEARCH_DIR, UNUSED } from './publish-index.ts';
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
const NOT_BASE = new Set(['recent', 'tiers.json']);

export interface BaseBuild {
  pages: number;
  shards: number;
  /** Files published (the new base's, all in a folder of its own). */
  written: number;
  /** Files of older bases deleted. */
  removed: number;
}

/** A published base: its stamp, the last index run whose notes it covers (tiers.ts), its page count and its shards' URLs. */
export interface BaseInfo {
  base: string;
  coversRun: number;
  pages: number;
  /** Each shard's folder as a URL path ending in `/`, e.g. `/pagefind/base-…/0/`; the first is the one the browser loads. */
  shards: string[];
}

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

/** Deletes every base folder but `keep`'s, and what an unsharded base left directly in the public folder; returns the files deleted. */
function removeOlderBases(publicDir: string, keep: Set<string>): number {
  let removed = 0;
  for (const entry of readdirSync(publicDir, { withFileTypes: true })) {
    if (NOT_BASE.has(entry.name) || keep.has(entry.name)) continue;
    if (!BASE_FOLDER.test(entry.name) && entry.isDirectory() && !['index', 'fragment', 'filter'].includes(entry.name))
      continue;
    const full = path.join(publicDir, entry.name);
    removed += entry.isDirectory() ? filesUnder(full).length : 1;
    rmSync(full, { recursive: true, force: true });
  }
  return removed;
}

/**
 * Indexes every record page, in shards of at most `shardPages`, publishes
 * them as the base tier and writes their result ids. `coversRun`: an index
 * run whose notes were all on disk before this started (tiers.ts). Runs in
 * base-thread.ts.
 */
export async function buildBaseTier(dir: string, coversRun: number, shardPages: number): Promise<BaseBuild> {
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
    const all = await listRecordPages(dir);
    const ids = new Map<string, string>();
    const shards: string[] = [];
    let pages = 0;
    let written = 0;
    for (let start = 0; start < all.length; start += shardPages) {
      const name = String(shards.length);
      const output = path.join(staging, name);
      const indexed = await writeShardIndex(all.slice(start, start + shardPages), output);
      // Every page of this run was removed since the listing: Pagefind cannot load an index without pages.
      if (indexed === 0) {
        await rm(output, { recursive: true, force: true });
        continue;
      }
      pages += indexed;
      written += readyShard(output, ids);
      shards.push(`/${SEARCH_DIR}/${folder}/${name}/`);
    }
    const publicDir = path.join(dir, SEARCH_DIR);
    await mkdir(publicDir, { recursive: true });
    const previous = await readBaseInfo(dir);
    if (shards.length > 0) renameSync(staging, path.join(publicDir, folder));
    await writeStateFile(dir, BASE_IDS_FILE, { base, ids: Object.fromEntries(ids) });
    await writeStateFile(dir, BASE_INFO_FILE, { base, coversRun, pages, shards } satisfies BaseInfo);
    // The previous base stays: tiers.json names it until the next index run, and searches under way use it.
    const removed = removeOlderBases(publicDir, new Set([folder, ...(previous ? [`base-${previous.base}`] : [])]));
    // The generation list of an unsharded base, whose files removeOlderBases just deleted.
    await rm(path.join(dir, '.pagefind-generation.json'), { force: true });
    return { pages, shards: shards.length, written, removed };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** buildBaseTier in a worker thread started for it. */
export function buildBaseTierInThread(dir: string, coversRun: number, shardPages: number): Promise<BaseBuild> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./base-thread.ts', import.meta.url), {
      workerData: { dir, coversRun, shardPages },
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

/** The published base's result ids by URL, with the stamp of the base they belong to. */
export async function readBaseIds(dir: string): Promise<{ base: string | null; ids: Map<string, string> }> {
  const text = await readFile(path.join(dir, BASE_IDS_FILE), 'utf8').catch(() => null);
  const parsed = text === null ? null : (JSON.parse(text) as { base?: string; ids?: Record<string, string> });
  return { base: parsed?.base ?? null, ids: new Map(Object.entries(parsed?.ids ?? {})) };
}
