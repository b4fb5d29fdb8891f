/**
 * Read-your-writes for the default projections. The worker renders a
 * committed edit a few milliseconds after the commit, while the receipt goes
 * out at once; in between, the files on disk (served by every API process
 * and by nginx) still show the previous revision. So before a receipt for
 * revision N of a record is sent, its default projection files are checked:
 * if they show an older revision they are removed, and until the worker
 * writes the new ones every reader, whichever process it asks, finds no file
 * and renders the record from the database, as it does for a record not
 * rendered yet.
 *
 * The check and the removal run under the record's render lock
 * (db/record-lock.ts): a renderer that read the older state before the
 * commit finishes writing its files first, and is then removed; a renderer
 * that starts after the removal reads the committed state. Files already at
 * the receipt's revision or newer are left alone, so a replayed receipt or a
 * render that came first costs no on-demand renders; and a file is only ever
 * removed while its newer render is still owed (the change is not rendered
 * until a renderer has read at least that revision). Which revision the
 * files show is read from the JSON, the last file a render writes: a render
 * cut short (its worker killed) leaves no file newer than the JSON, and when
 * it left no JSON at all, whatever it did write is removed too. Copies a
 * rebuild has staged (to rename into place when it is done) are looked at
 * the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import type { RecordRef } from '../core/types.ts';
import { withRecordLock } from '../db/record-lock.ts';
import { FORMATS, projectionFile, STAGING_PREFIX } from './files.ts';
import { removeProjectionWithSiblings } from './precompress.ts';
import { pathInside } from './safe-path.ts';

/** The revision the record's JSON projection shows, or null when there is no such file. */
function renderedRevision(dir: string, ref: RecordRef): number | null {
  let text: string;
  try {
    text = readFileSync(pathInside(dir, projectionFile(ref, 'json')), 'utf8');
  } catch {
    return null;
  }
  try {
    const revision = (JSON.parse(text) as { current_revision?: unknown }).current_revision;
    return typeof revision === 'number' ? revision : 0;
  } catch {
    // Unreadable: treat as outdated, so it is rendered on demand until rewritten.
    return 0;
  }
}

/**
 * Makes sure no default projection of `ref` older than `revision` is served
 * after this resolves. True when outdated files were removed.
 */
export async function retireOutdatedProjections(
  pool: pg.Pool,
  dir: string,
  ref: RecordRef,
  revision: number,
): Promise<boolean> {
  if (revision <= 1) return false;
  // Without the lock first: files already rendered at this revision (the render came first, a replay) cost one small read.
  // A missing file is looked at again under the lock: a renderer may be about to write the older revision.
  const seen = renderedRevision(dir, ref);
  if (seen !== null && seen >= revision) return false;
  return withRecordLock(pool, ref.id, async () => {
    // A rebuild staging this record's kind renames its folder into place when it is done, with no look at
    // what was committed meanwhile: an older copy staged there would be served after this receipt.
    for (const root of stagingRoots(dir)) retireOutdated(root, ref, revision);
    return retireOutdated(dir, ref, revision);
  });
}

/** Removes `ref`'s files under `root` unless its JSON shows `revision` or newer. True when the JSON was there. */
function retireOutdated(root: string, ref: RecordRef, revision: number): boolean {
  const locked = renderedRevision(root, ref);
  if (locked !== null && locked >= revision) return false;
  // No JSON is no render, or a render cut short before the JSON, the last file it writes (FORMATS): the
  // files it did write (the JSON's own compressed sibling among them) may show an older revision.
  let removed = locked !== null;
  for (const format of FORMATS) removed = removeProjectionWithSiblings(root, projectionFile(ref, format)) || removed;
  return removed;
}

/** The staging folders of rebuilds under way in `dir` (a few names to read: the kinds' folders and these). */
function stagingRoots(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.startsWith(STAGING_PREFIX))
      .map((name) => pathInside(dir, name));
  } catch {
    return [];
  }
}
