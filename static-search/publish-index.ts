/**
 * Publishes the recent tier's Pagefind bundle to PROJECTIONS_DIR/pagefind/recent
 * so that a reader never sees a broken index while it changes:
 *
 * - every file is written atomically (temp + rename, see render/publish.ts)
 *   and only when its bytes changed; content-hashed chunks never change;
 * - `pagefind-entry.json`, the one file that names all the others (through
 *   the hashed meta file), is swapped in last, so whatever entry a browser
 *   reads, the files it leads to already exist;
 * - files of older bundles are deleted one generation late, so a search that
 *   started on the previous entry can still load its chunks.
 *
 * (Pagefind's own writeFiles writes in place in no useful order and never
 * deletes, so the directory would grow with every re-index.)
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IndexFile } from 'pagefind';
import { writeProjectionFileSync } from '../projections/publish-file.ts';
import { pathInside } from '../projections/safe-path.ts';
import type { PublishedMemo } from './run-memo.ts';

export const SEARCH_DIR = 'pagefind';
/** The tier manifest in the public search folder (tiers.ts writes it; the browser reads it first). */
export const MANIFEST_FILE = 'tiers.json';
const ENTRY = 'pagefind-entry.json';

/** Where a tier's bundle is published, and the file (beside, not inside, the public directory) naming its previous generation. */
export interface TierLocation {
  /** Relative to the projections directory. */
  dir: string;
  generationFile: string;
}

/**
 * The recent tier lives inside the public search folder, so /pagefind/* serves
 * it beside the base's shards (base-tier.ts) and the tier manifest.
 */
export const RECENT_TIER: TierLocation = {
  dir: `${SEARCH_DIR}/recent`,
  generationFile: '.pagefind-recent-generation.json',
};
/**
 * Pagefind's prebuilt UIs: /search uses the JS API alone (and renders
 * excerpts itself, never as HTML), so they are not published.
 */
export const UNUSED = /^pagefind-(ui|modular-ui|component-ui|highlight)\./;

export interface PublishCounts {
  written: number;
  unchanged: number;
  removed: number;
}

async function listPublished(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

async function previousGeneration(dir: string, tier: TierLocation): Promise<string[]> {
  const text = await readFile(path.join(dir, tier.generationFile), 'utf8').catch(() => '[]');
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The files a browser needs, `pagefind-entry.json` last (it leads to every other file). */
function inPublishOrder<T extends { path: string }>(files: T[]): T[] {
  const published = files.filter((f) => !UNUSED.test(f.path));
  const entry = published.find((f) => f.path === ENTRY);
  if (!entry) throw new Error(`the Pagefind bundle has no ${ENTRY}`);
  return [...published.filter((f) => f !== entry), entry];
}

/**
 * Publishes `files` as `tier`. `memo` (the recent tier's, run-memo.ts) knows the files the last run published: one
 * still as it was left holding the same bytes is counted unchanged without being read back or stamped again.
 */
export async function publishSearchIndex(
  dir: string,
  files: IndexFile[],
  tier: TierLocation,
  memo?: PublishedMemo,
): Promise<PublishCounts> {
  const counts: PublishCounts = { written: 0, unchanged: 0, removed: 0 };
  const ordered = inPublishOrder(files);
  for (const file of ordered) {
    const relative = `${tier.dir}/${file.path}`;
    const target = pathInside(dir, relative);
    if (memo?.holds(target, file.content)) {
      counts.unchanged++;
      continue;
    }
    counts[writeProjectionFileSync(dir, relative, file.content)]++;
    memo?.published(target, file.content);
  }
  memo?.endRun();
  counts.removed = await removeOlderGenerations(
    dir,
    ordered.map((f) => f.path),
    tier,
  );
  return counts;
}

/** Deletes files of bundles older than the previous one, and records `current` as the previous generation of the next. */
async function removeOlderGenerations(dir: string, current: string[], tier: TierLocation): Promise<number> {
  let removed = 0;
  const keep = new Set([...current, ...(await previousGeneration(dir, tier))]);
  const root = path.join(dir, tier.dir);
  for (const file of await listPublished(root)) {
    if (keep.has(file)) continue;
    await rm(pathInside(root, file), { force: true });
    removed++;
  }
  await writeFile(pathInside(dir, tier.generationFile), JSON.stringify(current));
  return removed;
}
