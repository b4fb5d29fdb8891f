/**
 * The static search index in two tiers, so the cost of indexing a write does
 * not grow with the corpus:
 *
 * - the base tier (`/pagefind/`): every record page, rebuilt only when the
 *   recent tier passes COMPACT_AT pages (a compaction), or when there is none;
 * - the recent tier (`/pagefind/recent/`): the pages of records rendered since
 *   the base was built, rebuilt by every run, so a run costs what changed.
 *
 * Renders note the records they wrote in `.pagefind-pending/` (one file per
 * pass, written atomically, so several workers never clash); a run takes
 * those notes, adds them to the recent set and deletes only the notes it
 * read. The browser loads the base, merges the recent tier with Pagefind's
 * `mergeIndex`, and drops base results that the recent tier supersedes (a
 * newer version, or a removed record): `/pagefind/tiers.json` lists their
 * result ids, read from the base bundle's fragments when it was built.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RecordRef } from '../core/types.ts';
import { writeProjectionFile } from '../projections/publish-file.ts';
import { buildBaseTierInThread, readBaseIds } from './base-tier.ts';
import { buildSearchIndex, INDEXED_TYPES, recordPageOf, resultIdsByUrl } from './build-index.ts';
import { publishSearchIndex, RECENT_TIER, SEARCH_DIR, type PublishCounts } from './publish-index.ts';

/** Recent pages past which a run rebuilds the base instead (and empties the recent tier). */
export const COMPACT_AT = 2000;

const PENDING_DIR = '.pagefind-pending';
/** Every record: a full rebuild asks for a compaction instead of listing them all. */
const ALL = 'all';
/** The recent set, beside (not inside) the public directory. */
const STATE_FILE = '.pagefind-tiers.json';
const MANIFEST = `${SEARCH_DIR}/tiers.json`;

interface TierState {
  /** Record page URLs rendered since the base was built. */
  recent: string[];
  /** Which base the set belongs to (the base's generation stamp). */
  base: string;
  /** Pages in that base: Pagefind cannot load an index without any, so an empty base is rebuilt, never merged into. */
  basePages: number;
}

/** The base's ids, kept in memory between runs: read once per base, not once per run. */
let baseIdsCache: { base: string; ids: Map<string, string> } | null = null;

async function baseIdsOf(dir: string, base: string): Promise<Map<string, string>> {
  if (baseIdsCache?.base !== base) baseIdsCache = { base, ids: await readBaseIds(dir) };
  return baseIdsCache.ids;
}

/** What the browser reads first: whether to merge the recent tier, and which base results it supersedes. */
export interface TierManifest {
  /** Pages in the base; with none, Pagefind cannot load it, and there is nothing to search. */
  base_pages: number;
  recent: boolean;
  superseded: string[];
}

export interface TierRun extends PublishCounts {
  tier: 'base' | 'recent';
  pages: number;
}

/** Notes records a render pass wrote (or removed), or `'all'` after a full rebuild. */
export async function notePendingRecords(dir: string, refs: RecordRef[] | typeof ALL): Promise<void> {
  const urls = refs === ALL ? ALL : refs.filter((r) => INDEXED_TYPES.has(r.type)).map((r) => recordPageOf(dir, r).url);
  if (urls !== ALL && urls.length === 0) return;
  const folder = path.join(dir, PENDING_DIR);
  await mkdir(folder, { recursive: true });
  const name = `${Date.now()}-${randomBytes(6).toString('hex')}`;
  await writeFile(path.join(folder, `${name}.tmp`), JSON.stringify(urls));
  await rename(path.join(folder, `${name}.tmp`), path.join(folder, `${name}.json`));
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

async function readState(dir: string): Promise<TierState | null> {
  const text = await readFile(path.join(dir, STATE_FILE), 'utf8').catch(() => null);
  if (text === null) return null;
  return JSON.parse(text) as TierState;
}

async function writeState(dir: string, state: TierState): Promise<void> {
  const temp = path.join(dir, `${STATE_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, JSON.stringify(state));
  await rename(temp, path.join(dir, STATE_FILE));
}

async function publishManifest(dir: string, manifest: TierManifest): Promise<void> {
  await writeProjectionFile(dir, MANIFEST, Buffer.from(`${JSON.stringify(manifest)}\n`));
}

/** One index run: the recent tier from what changed, or a compaction into a new base. */
export async function updateSearchIndex(dir: string, compactAt = COMPACT_AT): Promise<TierRun> {
  const pending = await takePending(dir);
  const previous = await readState(dir);
  const baseMissing = !previous || !(await readFile(path.join(dir, SEARCH_DIR, 'pagefind-entry.json')).then(() => true, () => false));
  const recent = new Set([...(previous?.recent ?? []), ...pending.urls]);
  let run: TierRun;
  if (baseMissing || previous!.basePages === 0 || pending.all || recent.size > compactAt) {
    // Compaction: every page into a new base; the recent tier empties (pages
    // rendered from here on are noted again by their passes).
    // In its own thread: at 100k pages this takes minutes, and renders share this event loop.
    const built = await buildBaseTierInThread(dir);
    await publishManifest(dir, { base_pages: built.pages, recent: false, superseded: [] });
    await rm(path.join(dir, RECENT_TIER.dir), { recursive: true, force: true });
    await rm(path.join(dir, RECENT_TIER.generationFile), { force: true });
    const base = `${Date.now()}-${randomBytes(4).toString('hex')}`;
    await writeState(dir, { recent: [], base, basePages: built.pages });
    run = { tier: 'base', ...built };
  } else {
    const urls = [...recent].sort();
    const pages = urls.map((url) => ({ url, file: path.join(dir, `${url.slice(1)}.html`) }));
    const built = await buildSearchIndex(dir, pages);
    const counts = built.pages > 0 ? await publishSearchIndex(dir, built.files, RECENT_TIER) : { written: 0, unchanged: 0, removed: 0 };
    const baseIds = await baseIdsOf(dir, previous!.base);
    // A page unchanged since the base has the same id in both tiers: it stays (the browser shows it once).
    const inRecent = new Set(resultIdsByUrl(built.files).values());
    const superseded = urls.flatMap((url) => {
      const id = baseIds.get(url);
      return id && !inRecent.has(id) ? [id] : [];
    });
    await publishManifest(dir, { base_pages: previous!.basePages, recent: built.pages > 0, superseded });
    await writeState(dir, { recent: urls, base: previous!.base, basePages: previous!.basePages });
    run = { tier: 'recent', pages: built.pages, ...counts };
  }
  // Only the notes this run read: later ones stay for the next run.
  await Promise.all(pending.files.map((file) => rm(file, { force: true })));
  return run;
}
