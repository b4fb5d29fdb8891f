/**
 * Builds a Pagefind index of rendered record pages, in memory: of every page
 * (the base tier) or of the pages named (the recent tier, see tiers.ts).
 * Pagefind has no incremental mode; reading the published files (not the
 * database) indexes exactly what readers get.
 */
import { copyFileSync, linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { recordLinks, type RecordRef } from '../core/types.ts';
import type { FragmentMemo, PageReader } from './run-memo.ts';

export interface BuiltIndex {
  pages: number;
  files: pagefind.IndexFile[];
}

const FOLDERS: Record<string, RecordRef['type']> = {
  problems: 'problem',
  solutions: 'solution',
  discussions: 'discussion',
};
/** A record's HTML projection (not the temp file of a write in progress). */
const PAGE = /^([a-z]+_[0-9a-z]+)\.html$/;

export interface RecordPage {
  file: string;
  url: string;
}

/** Record types with pages in the static index. */
export const INDEXED_TYPES: ReadonlySet<RecordRef['type']> = new Set(Object.values(FOLDERS));

/** The page of a record of an indexed type (it may not exist: a removed record). */
export function recordPageOf(dir: string, ref: RecordRef): RecordPage {
  const url = recordLinks(ref).html;
  return { file: path.join(dir, `${url.slice(1)}.html`), url };
}

/**
 * Every record page, problems then solutions then discussions, each folder
 * in name order, held as ids: a page's file and URL are made only when a
 * slice of the list is taken (a shard). A million pages as objects with
 * their two paths held 612 MiB after collection (1.4 GiB at the peak of
 * reading whole folders); as ids streamed from each folder, tens of MiB.
 */
export interface RecordPageList {
  length: number;
  slice(start: number, end: number): RecordPage[];
  /** The page at `index`'s place in this order (pageKey): what a base's shard ranges are cut by. */
  keyAt(index: number): string;
  /** Where each type's pages start in the list (problems at 0). */
  typeStarts: number[];
}

const FOLDER_NAMES = Object.keys(FOLDERS);

/**
 * A page's place in the list's order, as a string that sorts the same way:
 * its folder's position, then its id. Ids sort by creation time, so a new
 * record's key falls after every older key of its type.
 */
export function pageKey(url: string): string | null {
  const match = /^\/([a-z]+)\/([a-z]+_[0-9a-z]+)$/.exec(url);
  const folder = match ? FOLDER_NAMES.indexOf(match[1]!) : -1;
  return folder < 0 ? null : `${folder}/${match![2]}`;
}

export async function listRecordPages(dir: string): Promise<RecordPageList> {
  const folders: { folder: string; type: RecordRef['type']; ids: string[] }[] = [];
  for (const [folder, type] of Object.entries(FOLDERS)) {
    const ids: string[] = [];
    const handle = await opendir(path.join(dir, folder), { bufferSize: 1024 }).catch(() => null);
    // One entry at a time: a folder's names (six files a record) are never all in memory.
    if (handle)
      for await (const entry of handle) {
        const id = PAGE.exec(entry.name)?.[1];
        if (id) ids.push(id);
      }
    folders.push({ folder, type, ids: ids.sort() });
  }
  const length = folders.reduce((n, f) => n + f.ids.length, 0);
  const typeStarts = folders.map((_, n) => folders.slice(0, n).reduce((sum, f) => sum + f.ids.length, 0));
  return {
    length,
    typeStarts,
    slice(start, end) {
      const pages: RecordPage[] = [];
      let offset = 0;
      for (const { folder, type, ids } of folders) {
        for (let i = Math.max(start - offset, 0); i < Math.min(end - offset, ids.length); i++)
          // The page's own URL: projections are served without the .html suffix.
          pages.push({ file: path.join(dir, folder, `${ids[i]}.html`), url: recordLinks({ type, id: ids[i]! }).html });
        offset += ids.length;
      }
      return pages;
    },
    keyAt(index) {
      let offset = 0;
      for (const [n, { ids }] of folders.entries()) {
        if (index < offset + ids.length) return `${n}/${ids[index - offset]}`;
        offset += ids.length;
      }
      throw new RangeError(`no page ${index} in a list of ${length}`);
    },
  };
}

/** True when `dir` holds at most `limit` record pages: counting stops at the first page past it. */
export async function hasAtMostPages(dir: string, limit: number): Promise<boolean> {
  let pages = 0;
  for (const folder of FOLDER_NAMES) {
    const handle = await opendir(path.join(dir, folder), { bufferSize: 1024 }).catch(() => null);
    if (handle) for await (const entry of handle) if (PAGE.test(entry.name) && ++pages > limit) return false;
  }
  return true;
}

function assertOk<T extends { errors: string[] }>(response: T, step: string): T {
  if (response.errors.length > 0) throw new Error(`Pagefind ${step} failed: ${response.errors.join('; ')}`);
  return response;
}

/** Pages handed to Pagefind's service before the first of them is answered. */
const IN_FLIGHT = 32;

let running: Promise<unknown> = Promise.resolve();

/**
 * Pagefind's Node API drives one service process per Node process, and
 * close() stops it for every index in that process; so runs never overlap
 * here, whoever calls.
 */
function exclusive<T>(run: () => Promise<T>): Promise<T> {
  const next = running.then(run, run);
  running = next.catch(() => undefined);
  return next;
}

/**
 * Each page's result id in a built bundle (what Pagefind's search answers as
 * `result.id`), by URL: read from its fragments, single or grouped.
 */
export function resultIdsByUrl(
  files: Iterable<{ path: string; content: Uint8Array }>,
  memo?: FragmentMemo,
): Map<string, string> {
  const ids = new Map<string, string>();
  for (const file of files) {
    const name = /^fragment\/(.+)\.pf_fragment$/.exec(file.path)?.[1];
    if (!name) continue;
    const parse = () => fragmentIds(name, file.content);
    for (const [url, id] of memo ? memo.idsOf(file, parse) : parse()) ids.set(url, id);
  }
  memo?.endRun();
  return ids;
}

/** The [url, result id] pairs of one fragment file named `name`. */
function fragmentIds(name: string, content: Uint8Array): [string, string][] {
  const text = gunzipSync(content)
    .toString('utf8')
    .replace(/^pagefind_dcd/, '');
  const parsed = JSON.parse(text) as { url?: string } | Record<string, { url: string }>;
  if (typeof parsed.url === 'string') return [[servedUrl(parsed.url), name]];
  return Object.entries(parsed as Record<string, { url: string }>).map(([hash, fragment]) => [
    servedUrl(fragment.url),
    hash,
  ]);
}

/**
 * The URL a page is served at, from the URL an index gives it: a shard of
 * the base is indexed from its pages' files (`writeShardIndex`), whose URLs
 * end in `.html`; projections are served without it (the browser's copy of
 * this rule is `recordPath`, site/lib/search/excerpt.ts).
 */
export const servedUrl = (url: string) => url.replace(/\.html$/, '');

/** The URL an index gives a page served at `url`: its file's path, as a shard's directory walk names it. */
const indexedUrl = (url: string) => `${url}.html`;

/**
 * A page's text, or null when it cannot be read. Read synchronously: the
 * promise API's open, stat, read and close cost a run ten times the CPU
 * (about 80 against 8 µs a page), and the recent tier reads up to
 * COMPACT_AT pages every run, in the render worker's event loop.
 */
function readPage(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

type PagefindIndex = NonNullable<Awaited<ReturnType<typeof pagefind.createIndex>>['index']>;

/**
 * `run` with a Pagefind index of its own, its service stopped afterwards;
 * runs never overlap (`exclusive`).
 */
function withPagefind<T>(run: (index: PagefindIndex) => Promise<T>): Promise<T> {
  return exclusive(async () => {
    try {
      const { index } = assertOk(await pagefind.createIndex({ forceLanguage: 'en' }), 'createIndex');
      if (!index) throw new Error('Pagefind createIndex returned no index');
      return await run(index);
    } finally {
      await pagefind.close();
    }
  });
}

/** A Pagefind index of `only`, handed to `output` while its service runs; `reader` reads the pages (the recent tier's remembers them). */
function withIndex<T>(
  only: RecordPage[],
  output: (index: PagefindIndex, pages: number) => Promise<T>,
  reader?: PageReader,
): Promise<T> {
  return withPagefind(async (index) => {
    let pages = 0;
    // Up to IN_FLIGHT pages sent before their answers (Pagefind's service matches answers by message id):
    // the next page is read while the service parses the last, instead of a round trip a page.
    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    for (const page of only) {
      // Gone since the listing means its record is gone: nothing to index.
      const content = reader ? reader.read(page.file) : readPage(page.file);
      if (content === null) continue;
      const added: Promise<void> = index
        // The URL a shard's directory walk gives the same page (`writeShardIndex`): a page unchanged since
        // the base then has the same fragment, and so the same result id, in both tiers.
        .addHTMLFile({ url: indexedUrl(page.url), content })
        .then(
          (response) => {
            assertOk(response, `addHTMLFile ${page.url}`);
            pages++;
          },
          (error: unknown) => void (failure ??= error),
        )
        .catch((error: unknown) => void (failure ??= error))
        .finally(() => inFlight.delete(added));
      inFlight.add(added);
      if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      if (failure) throw failure;
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    reader?.endRun();
    return await output(index, pages);
  });
}

/** Indexes `pages` into memory: for the recent tier, a few pages. */
export function buildSearchIndex(only: RecordPage[], reader?: PageReader): Promise<BuiltIndex> {
  return withIndex(
    only,
    async (index, pages) => ({
      pages,
      files: assertOk(await index.getFiles(), 'getFiles').files,
    }),
    reader,
  );
}

/**
 * Indexes `pages` into the folder `output` (Pagefind writes the files
 * itself): one shard of the base tier. The pages are hard-linked into a
 * folder of their own beside `output` and Pagefind reads that folder
 * (`addDirectory`), as its CLI reads a site: sent one by one through the
 * service's stdin (`addHTMLFile`), a shard of 100,000 pages took 174 s
 * against 65 s read from disk (56.6 s for the CLI). The links are taken
 * before Pagefind starts, so a page re-rendered meanwhile is indexed as it
 * was when listed, like any page of the run; one removed since is left out.
 * The service holds the whole index it builds (3.4–4.4 GiB at 100k pages)
 * until close(), which is why a base is built in shards, each by a service
 * of its own (base-tier.ts).
 */
export async function writeShardIndex(pages: RecordPage[], output: string): Promise<number> {
  const site = `${output}.pages`;
  try {
    const linked = linkPages(pages, site);
    if (linked === 0) return 0;
    return await withPagefind(async (index) => {
      const added = assertOk(await index.addDirectory({ path: site }), 'addDirectory');
      // Pagefind's directory walk leaves out a page it cannot read or parse without an error: said here, as
      // addHTMLFile says it, rather than a shard that lacks the page (and is built again at every compaction).
      if (added.page_count !== linked)
        throw new Error(`Pagefind addDirectory indexed ${added.page_count} of the ${linked} pages of ${site}`);
      assertOk(await index.writeFiles({ outputPath: output }), 'writeFiles');
      return added.page_count;
    });
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}

/**
 * Each page's file linked into `site` at its URL with `.html`, where
 * Pagefind's directory walk finds it; copied where the file system has no
 * hard links. Returns the pages linked (a page gone since the listing is not).
 * Synchronous: a base is built on a thread of its own (base-thread.ts), and
 * the promise API's calls cost several times the CPU per file.
 */
function linkPages(pages: RecordPage[], site: string): number {
  const folders = new Set<string>();
  let linked = 0;
  for (const page of pages) {
    const target = path.join(site, indexedUrl(page.url).slice(1));
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    try {
      linkSync(page.file, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      try {
        copyFileSync(page.file, target);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw copyError;
      }
    }
    linked++;
  }
  return linked;
}
