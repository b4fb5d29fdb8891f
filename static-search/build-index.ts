/**
 * Builds a Pagefind index of rendered record pages, in memory: of every page
 * (the base tier) or of the pages named (the recent tier, see tiers.ts).
 * Pagefind has no incremental mode; reading the published files (not the
 * database) indexes exactly what readers get.
 */
import { readdir, readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { recordLinks, type RecordRef } from '../core/types.ts';

export interface BuiltIndex {
  pages: number;
  files: pagefind.IndexFile[];
}

const FOLDERS: Record<string, RecordRef['type']> = { problems: 'problem', solutions: 'solution', discussions: 'discussion' };
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

async function listRecordPages(dir: string): Promise<RecordPage[]> {
  const pages: RecordPage[] = [];
  for (const [folder, type] of Object.entries(FOLDERS)) {
    const names = await readdir(path.join(dir, folder)).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const id = PAGE.exec(name)?.[1];
      // The page's own URL: projections are served without the .html suffix.
      if (id) pages.push({ file: path.join(dir, folder, name), url: recordLinks({ type, id }).html });
    }
  }
  return pages;
}

function assertOk<T extends { errors: string[] }>(response: T, step: string): T {
  if (response.errors.length > 0) throw new Error(`Pagefind ${step} failed: ${response.errors.join('; ')}`);
  return response;
}

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
export function resultIdsByUrl(files: pagefind.IndexFile[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const file of files) {
    const name = /^fragment\/(.+)\.pf_fragment$/.exec(file.path)?.[1];
    if (!name) continue;
    const text = gunzipSync(Buffer.from(file.content)).toString('utf8').replace(/^pagefind_dcd/, '');
    const parsed = JSON.parse(text) as { url?: string } | Record<string, { url: string }>;
    if (typeof parsed.url === 'string') ids.set(parsed.url, name);
    else for (const [hash, fragment] of Object.entries(parsed as Record<string, { url: string }>)) ids.set(fragment.url, hash);
  }
  return ids;
}

/** Indexes `pages` (every record page when omitted). */
export function buildSearchIndex(dir: string, only?: RecordPage[]): Promise<BuiltIndex> {
  return exclusive(async () => {
    try {
      const { index } = assertOk(await pagefind.createIndex({ forceLanguage: 'en' }), 'createIndex');
      if (!index) throw new Error('Pagefind createIndex returned no index');
      let pages = 0;
      for (const page of only ?? (await listRecordPages(dir))) {
        // Gone since the listing means its record is gone: nothing to index.
        const content = await readFile(page.file, 'utf8').catch(() => null);
        if (content === null) continue;
        assertOk(await index.addHTMLFile({ url: page.url, content }), `addHTMLFile ${page.url}`);
        pages++;
      }
      const { files } = assertOk(await index.getFiles(), 'getFiles');
      return { pages, files };
    } finally {
      await pagefind.close();
    }
  });
}
