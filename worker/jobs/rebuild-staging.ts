/**
 * A rebuild of a kind whose folder is missing or empty (a first build, a new
 * projections directory) writes that folder's files into a staging folder no
 * reader sees, then renames the whole folder into place: one atomic step, so
 * a reader finds either no file (the API renders it on demand) or the
 * finished one, and never half a file. Inside the staging folder every file
 * is written straight to its name (publish-file.ts writeFreshProjectionFileSync):
 * no temp file and rename, no look at an existing file, for each of the
 * 900,000 files of 100k records; the bytes and stamps are the same as an
 * in-place write's.
 *
 * The staging folder lies inside the projections directory (so the rename
 * never crosses file systems), named `.rebuild-<random>`: nginx serves only
 * the kinds' folders, and the API only record files.
 *
 * The worker may render a record into the live folder while the rebuild
 * stages it (a render pass runs beside a rebuild job). Then the folder is
 * not empty at the end and the rename refuses (ENOTEMPTY); the staged files
 * are moved in one by one under their records' locks instead, except for
 * records the live folder has files of: those are rendered again in place
 * from their current state, so the newer render always wins.
 */
import { randomBytes } from 'node:crypto';
import { type Dir, existsSync, mkdirSync, opendirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { ENCODING_SUFFIX, ENCODINGS } from '../../core/encodings.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import { FORMATS, projectionFile, STAGING_PREFIX } from '../../projections/files.ts';
import type { HtmlRenderer } from '../../projections/html.ts';
import type { ProjectionWriter } from '../../projections/publish-pool.ts';
import { pathInside } from '../../projections/safe-path.ts';
import { withRecordLocks } from '../../db/record-lock.ts';
import { listRecordIdsAfter } from '../../db/queries/record-pages.ts';
import { renderRecords, type RenderCounts } from '../render/render-record.ts';

/** A staging folder untouched for this long belongs to no running rebuild. */
const STALE_STAGING_MS = 60 * 60 * 1000;

/** Records moved in per lock batch when the live folder filled up meanwhile. */
const MERGE_BATCH = 500;

const TYPE_OF_FOLDER = new Map(Object.entries(COLLECTION).map(([type, folder]) => [folder, type as RecordRef['type']]));

export interface Staging {
  /** The staging root, holding `<folder>/…` for each staged kind. */
  root: string;
  /** The kinds' folders (`problems`, …) written there rather than in place. */
  folders: Set<string>;
}

/** True when `folder` is missing or holds no entry (read without listing a large folder). */
function isEmptyOrMissing(folder: string): boolean {
  let handle: Dir | undefined;
  try {
    handle = opendirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    return handle.readSync() === null;
  } finally {
    handle.closeSync();
  }
}

/** Removes staging folders of rebuilds that died (none of their folders changed for an hour). */
function removeStaleStaging(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(STAGING_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const root = pathInside(dir, name);
    const touched = [root, ...readdirSync(root).map((f) => path.join(root, f))].map(
      (p) => statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0,
    );
    if (now - Math.max(...touched) > STALE_STAGING_MS) rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Chooses which of `types`' folders to stage (those missing or empty) and
 * makes the staging folder; null when every folder already has files (the
 * rebuild then writes in place and rewrites only what changed).
 */
export function prepareStaging(dir: string, types: Iterable<RecordRef['type']>): Staging | null {
  removeStaleStaging(dir);
  const folders = new Set(
    [...new Set(types)].map((type) => COLLECTION[type]).filter((folder) => isEmptyOrMissing(pathInside(dir, folder))),
  );
  if (folders.size === 0) return null;
  const root = pathInside(dir, `${STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
  for (const folder of folders) mkdirSync(path.join(root, folder), { recursive: true });
  return { root, folders };
}

/** A writer that sends the staged kinds' files to the staging folder (written fresh) and the rest to `dir`. */
export function stagingWriter(writer: ProjectionWriter, staging: Staging): ProjectionWriter {
  const staged = (relative: string) => staging.folders.has(relative.slice(0, relative.indexOf('/')));
  return {
    async write(dir, files, options) {
      if (files.length > 0 && files.every((f) => staged(f.relative)))
        return writer.write(staging.root, files, { ...options, fresh: true });
      return writer.write(dir, files, options);
    },
    // A staged folder held nothing of any record to remove.
    remove: (dir, relatives) => writer.remove(dir, relatives),
    close: () => writer.close(),
  };
}

/** Removes the staging folder of a rebuild that failed: nothing of it was put in place. */
export function abandonStaging(staging: Staging): void {
  rmSync(staging.root, { recursive: true, force: true });
}

/**
 * Puts each staged folder in place: one rename when the live folder is
 * still missing or empty, else a merge (see the module comment). Removes
 * the staging folder. Counts what the merge renders again.
 */
export async function finishStaging(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  staging: Staging,
  counts: RenderCounts,
): Promise<void> {
  for (const folder of staging.folders) {
    const staged = path.join(staging.root, folder);
    const live = pathInside(dir, folder);
    try {
      renameSync(staged, live);
      continue;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
    await mergeFolder(pool, html, dir, folder, staged, counts);
  }
  rmSync(staging.root, { recursive: true, force: true });
}

/**
 * The file names a record's projections may have in a kind's folder, each
 * format's compressed siblings before the file itself, as every write orders them.
 */
function projectionNames(ref: RecordRef): string[] {
  return FORMATS.flatMap((format) => {
    const name = path.basename(projectionFile(ref, format));
    return [...ENCODINGS.map((encoding) => `${name}${ENCODING_SUFFIX[encoding]}`), name];
  });
}

/**
 * Moves a staged folder's files into a live folder that others wrote to
 * meanwhile. The kind's records are walked from the database a batch at a
 * time (keyset pagination) and their files looked for by name, so neither
 * folder is ever listed whole. A staged record deleted meanwhile is not
 * moved in: its files go with the staging folder.
 */
async function mergeFolder(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  folder: string,
  staged: string,
  counts: RenderCounts,
): Promise<void> {
  const type = TYPE_OF_FOLDER.get(folder)!;
  let again: RecordRef[] = [];
  // Their live files may be older or newer than the staged ones: render their current state in place,
  // counted instead of their staged files.
  const renderAgain = async () => {
    counts.written -= FORMATS.length * again.length;
    await renderRecords(pool, html, dir, again, counts);
    again = [];
  };
  for (let after = ''; ; ) {
    const ids = await listRecordIdsAfter(pool, type, after, MERGE_BATCH);
    await withRecordLocks(pool, ids, async () => {
      // Looked at under the locks: a file the worker writes now is for a record it holds the lock of, never one of these.
      for (const id of ids) {
        const names = projectionNames({ type, id });
        const mine = names.filter((name) => existsSync(path.join(staged, name)));
        if (mine.length === 0) continue;
        if (names.some((name) => existsSync(pathInside(dir, `${folder}/${name}`)))) {
          again.push({ type, id });
          continue;
        }
        for (const name of mine) renameSync(path.join(staged, name), pathInside(dir, `${folder}/${name}`));
      }
    });
    if (again.length >= MERGE_BATCH) await renderAgain();
    if (ids.length < MERGE_BATCH) break;
    after = ids.at(-1)!;
  }
  await renderAgain();
}
