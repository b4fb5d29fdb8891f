/**
 * Builds and publishes the base tier (tiers.ts) in a worker thread of its
 * own. At 100k pages a base takes minutes; its file work (reading Pagefind's
 * ~100k output files, gunzipping each fragment for its result id, renaming
 * each into place) is synchronous, and on the worker's main thread it would
 * hold up every render pass for that long. In its thread, the main thread
 * only waits for one message.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { resultIdsByUrl, writeBaseIndex } from './build-index.ts';
import { BASE_TIER, publishStagedIndex, type PublishCounts } from './publish-index.ts';
import { writeStateFile } from './state-file.ts';

/** The base bundle's result id of each page URL, written with each base (tiers.ts reads it). */
const BASE_IDS_FILE = '.pagefind-base-ids.json';
/** Which base is published (written last, after its bundle and ids): what tiers.ts compares its recent set against. */
const BASE_INFO_FILE = '.pagefind-base.json';
/** Where Pagefind writes a base before it is published: inside the projections directory (one file system, so renames), beside the public folders. */
const STAGING_PREFIX = '.pagefind-staging-';

export interface BaseBuild extends PublishCounts {
  pages: number;
}

/** A published base: its stamp, the last index run whose notes it covers (tiers.ts), and its page count. */
export interface BaseInfo {
  base: string;
  coversRun: number;
  pages: number;
}

/** Fragments of a bundle on disk, read one at a time. */
function* stagedFragments(staging: string, names: string[]): Generator<{ path: string; content: Uint8Array }> {
  for (const name of names)
    yield { path: `fragment/${name}`, content: readFileSync(path.join(staging, 'fragment', name)) };
}

/**
 * Indexes every record page, publishes the bundle as the base tier and writes
 * its result ids. `coversRun`: an index run whose notes were all on disk
 * before this started (tiers.ts). Runs in base-thread.ts.
 */
export async function buildBaseTier(dir: string, coversRun: number): Promise<BaseBuild> {
  const base = `${Date.now()}-${randomBytes(4).toString('hex')}`;
  // A first start may index before anything was rendered: no folder yet is an empty corpus, not an error.
  await mkdir(dir, { recursive: true });
  // A staging folder left by a build that died: one base is built at a time (the compaction queue runs one job;
  // the index run builds one itself only when there is no base yet, so nothing to compact).
  for (const name of await readdir(dir))
    if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dir, name), { recursive: true, force: true });
  const staging = path.join(dir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    const pages = await writeBaseIndex(dir, staging);
    // Read before publishing: the rename moves the fragments away.
    const fragments = await readdir(path.join(staging, 'fragment')).catch(() => [] as string[]);
    const ids = resultIdsByUrl(stagedFragments(staging, fragments));
    const counts = await publishStagedIndex(dir, staging, BASE_TIER);
    await writeStateFile(dir, BASE_IDS_FILE, { base, ids: Object.fromEntries(ids) });
    await writeStateFile(dir, BASE_INFO_FILE, { base, coversRun, pages } satisfies BaseInfo);
    return { pages, ...counts };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** buildBaseTier in a worker thread started for it. */
export function buildBaseTierInThread(dir: string, coversRun: number): Promise<BaseBuild> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./base-thread.ts', import.meta.url), { workerData: { dir, coversRun } });
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

/** The published base, or null when none was built (or it was built before bases were stamped: build one). */
export async function readBaseInfo(dir: string): Promise<BaseInfo | null> {
  const text = await readFile(path.join(dir, BASE_INFO_FILE), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as BaseInfo);
}

/** The published base's result ids by URL, with the stamp of the base they belong to. */
export async function readBaseIds(dir: string): Promise<{ base: string | null; ids: Map<string, string> }> {
  const text = await readFile(path.join(dir, BASE_IDS_FILE), 'utf8').catch(() => null);
  const parsed = text === null ? null : (JSON.parse(text) as { base?: string; ids?: Record<string, string> });
  return { base: parsed?.base ?? null, ids: new Map(Object.entries(parsed?.ids ?? {})) };
}
