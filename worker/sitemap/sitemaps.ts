/**
 * The sitemap (sitemaps.org protocol): `sitemap.xml` is a sitemap index over
 * chunk files `sitemaps/{collection}-{YYYY-MM-DD}[-{part}].xml`, one per kind
 * of record and UTC day of creation (ids carry their creation time, so a
 * chunk is one primary-key range).
 *
 * Kept current incrementally: after render passes (at most one update every
 * two seconds, however many passes ran: the `sitemaps` job of
 * worker/jobs/table.ts) the worker reads
 * the change log past its own cursor, re-writes only the chunks of the
 * records those changes affect, and the index (one line per chunk) from its
 * state file. Nothing is rebuilt whole per write. `resetSitemaps` (a full
 * rebuild) replays the whole log, which also bootstraps a new projections
 * directory.
 *
 * A chunk holds at most 50,000 URLs (the protocol's limit); a busier day is
 * split into parts.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { idFloor, idTime } from '../../core/ids.ts';
import { SITEMAP_DIR, SITEMAP_INDEX_FILE, SITEMAP_MAX_URLS, sitemapIndex, sitemapUrlSet } from '../../core/sitemap.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import { listChangedRecords, listSitemapEntries } from '../../db/queries/sitemap.ts';
import { writeProjectionFile } from '../../projections/publish-file.ts';
import { withRecordLock } from '../../db/record-lock.ts';

/** Beside, not inside, what is served (like the search index's generation file). */
const STATE_FILE = '.sitemap-state.json';
const CHANGES_PER_READ = 1000;
const DAY_MS = 86_400_000;
/** One updater at a time across workers: the state file is read, changed and written. */
const LOCK = 'sitemap';

interface SitemapState {
  /** The last change whose records are in the chunks. */
  cursor: string;
  /** Chunk file name (without .xml) → the newest lastmod in it. */
  chunks: Record<string, string>;
}

interface Chunk {
  type: RecordRef['type'];
  /** UTC midnight of the day, in ms. */
  day: number;
}

const chunkKey = (chunk: Chunk) => `${COLLECTION[chunk.type]}-${new Date(chunk.day).toISOString().slice(0, 10)}`;
const partName = (key: string, part: number) => (part === 0 ? key : `${key}-${part + 1}`);

async function readState(dir: string): Promise<SitemapState> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dir, STATE_FILE), 'utf8')) as SitemapState;
    if (typeof parsed.cursor === 'string' && parsed.chunks && typeof parsed.chunks === 'object') return parsed;
  } catch {
    // Missing or unreadable: replay the log from the start.
  }
  return { cursor: '0', chunks: {} };
}

/** Re-writes one day's chunk (and its parts) from the database, and its entries in the state. */
async function writeChunk(db: pg.Pool, dir: string, origin: string, chunk: Chunk, state: SitemapState): Promise<void> {
  const key = chunkKey(chunk);
  const entries = await listSitemapEntries(
    db,
    chunk.type,
    idFloor(chunk.type, chunk.day),
    idFloor(chunk.type, chunk.day + DAY_MS),
  );
  const parts = Math.ceil(entries.length / SITEMAP_MAX_URLS);
  for (let part = 0; part < parts; part++) {
    const slice = entries.slice(part * SITEMAP_MAX_URLS, (part + 1) * SITEMAP_MAX_URLS);
    const name = partName(key, part);
    await writeProjectionFile(dir, `${SITEMAP_DIR}/${name}.xml`, sitemapUrlSet(origin, chunk.type, slice));
    // ISO texts of one length sort as their instants do.
    let newest = slice[0]!.lastmod;
    for (const e of slice) if (e.lastmod > newest) newest = e.lastmod;
    state.chunks[name] = newest;
  }
  // Parts the day no longer needs (records removed), up to the last one the state knows of.
  for (let part = parts; partName(key, part) in state.chunks; part++) {
    await rm(path.join(dir, SITEMAP_DIR, `${partName(key, part)}.xml`), { force: true });
    delete state.chunks[partName(key, part)];
  }
}

/** Brings the sitemap up to the newest change; returns how many chunks were re-written. */
export async function updateSitemaps(pool: pg.Pool, dir: string, origin: string): Promise<number> {
  return withRecordLock(pool, LOCK, async () => {
    const state = await readState(dir);
    let written = 0;
    for (;;) {
      const changes = await listChangedRecords(pool, state.cursor, CHANGES_PER_READ);
      if (changes.length === 0) break;
      const chunks = new Map<string, Chunk>();
      for (const ref of changes.flatMap((c) => c.affects)) {
        const chunk = { type: ref.type, day: Math.floor(idTime(ref.id) / DAY_MS) * DAY_MS };
        chunks.set(chunkKey(chunk), chunk);
      }
      for (const chunk of chunks.values()) await writeChunk(pool, dir, origin, chunk, state);
      written += chunks.size;
      state.cursor = changes.at(-1)!.cursor;
      // The index before the state: a crash in between re-does this batch, never skips it.
      await writeProjectionFile(dir, SITEMAP_INDEX_FILE, sitemapIndex(origin, state.chunks));
      await writeFile(path.join(dir, STATE_FILE), JSON.stringify(state));
      if (changes.length < CHANGES_PER_READ) break;
    }
    return written;
  });
}

/** For a full rebuild: forget the cursor, so the next update re-writes every chunk from the log. */
export async function resetSitemaps(pool: pg.Pool, dir: string, origin: string): Promise<number> {
  await withRecordLock(pool, LOCK, () => rm(path.join(dir, STATE_FILE), { force: true }));
  return updateSitemaps(pool, dir, origin);
}
