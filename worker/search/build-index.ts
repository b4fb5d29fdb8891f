/**
 * Builds the Pagefind index of every rendered record page, in memory.
 * Full rebuilds only: Pagefind has no incremental mode, and reading the
 * published files (not the database) indexes exactly what readers get.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { recordLinks, type RecordRef } from '../../core/types.ts';

export interface BuiltIndex {
  pages: number;
  files: pagefind.IndexFile[];
}

const FOLDERS: Record<string, RecordRef['type']> = { problems: 'problem', solutions: 'solution' };
/** A record's HTML projection (not the temp file of a write in progress). */
const PAGE = /^([a-z]+_[0-9a-z]+)\.html$/;

interface RecordPage {
  file: string;
  url: string;
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

export function buildSearchIndex(dir: string): Promise<BuiltIndex> {
  return exclusive(async () => {
    try {
      const { index } = assertOk(await pagefind.createIndex({ forceLanguage: 'en' }), 'createIndex');
      if (!index) throw new Error('Pagefind createIndex returned no index');
      let pages = 0;
      for (const page of await listRecordPages(dir)) {
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
