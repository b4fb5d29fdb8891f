/**
 * Builds and publishes the base tier (tiers.ts) in a worker thread of its
 * own. At 100k pages a base takes minutes; its file work (reading Pagefind's
 * ~100k output files, gunzipping each fragment for its result id, renaming
 * each into place) is synchronous, and on the worker's main thread it would
 * hold up every render pass for that long. In its thread, the main thread
 * only waits for one message.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { resultIdsByUrl, writeBaseIndex } from './build-index.ts';
import { BASE_TIER, publishStagedIndex, type PublishCounts } from './publish-index.ts';

/** The base bundle's result id of each page URL, written with each base (tiers.ts reads it). */
export const BASE_IDS_FILE = '.pagefind-base-ids.json';
/** Where Pagefind writes a base before it is published: inside the projections directory (one file system, so renames), beside the public folders. */
const STAGING_PREFIX = '.pagefind-staging-';

export interface BaseBuild extends PublishCounts {
  pages: number;
}

/** Fragments of a bundle on disk, read one at a time. */
function* stagedFragments(staging: string, names: string[]): Generator<{ path: string; content: Uint8Array }> {
  for (const name of names) yield { path: `fragment/${name}`, content: readFileSync(path.join(staging, 'fragment', name)) };
}

/** Indexes every record page, publishes the bundle as the base tier and writes its result ids. Runs in base-thread.ts. */
export async function buildBaseTier(dir: string): Promise<BaseBuild> {
  // A staging folder left by a run that died: only one base is built at a time (the index queue runs one job).
  for (const name of await readdir(dir)) if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dir, name), { recursive: true, force: true });
  const staging = path.join(dir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    const pages = await writeBaseIndex(dir, staging);
    // Read before publishing: the rename moves the fragments away.
    const fragments = await readdir(path.join(staging, 'fragment')).catch(() => [] as string[]);
    const ids = resultIdsByUrl(stagedFragments(staging, fragments));
    const counts = await publishStagedIndex(dir, staging, BASE_TIER);
    const temp = path.join(dir, `${BASE_IDS_FILE}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temp, JSON.stringify(Object.fromEntries(ids)));
    await rename(temp, path.join(dir, BASE_IDS_FILE));
    return { pages, ...counts };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** buildBaseTier in a worker thread started for it. */
export function buildBaseTierInThread(dir: string): Promise<BaseBuild> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./base-thread.ts', import.meta.url), { workerData: { dir } });
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

/** The ids file as written by buildBaseTier. */
export async function readBaseIds(dir: string): Promise<Map<string, string>> {
  const text = await readFile(path.join(dir, BASE_IDS_FILE), 'utf8').catch(() => '{}');
  return new Map(Object.entries(JSON.parse(text) as Record<string, string>));
}
