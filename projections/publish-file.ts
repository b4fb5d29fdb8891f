/**
 * Writes projection files atomically (temp file + rename, so a reader never
 * sees half a file) and stamps each with its content-derived mtime (see
 * core/etag.ts). Unchanged bytes are left alone, so a full rebuild rewrites
 * only what changed.
 *
 * The work is synchronous file calls: each is one system call made where it
 * is called, where the promise API makes a round trip through libuv's thread
 * pool per call (open, write, utimes, close, rename are five). A rebuild runs
 * these in worker threads (publish-pool.ts); the async wrappers below keep the
 * old signatures for the worker's few files per write.
 */
import {
  closeSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { contentMtime } from '../core/etag.ts';
import { pathInside } from './safe-path.ts';

export type WriteResult = 'written' | 'unchanged';

/** What a file holds against the bytes about to be written: exactly them, other bytes, or nothing at all. */
export type Held = 'same' | 'changed' | 'absent';

/** What `file` holds against `bytes` (its size is checked first, so most changed files are never read). */
export function heldBytes(file: string, bytes: Uint8Array): Held {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 'absent';
  return stat.size === bytes.byteLength && readFileSync(file).equals(bytes) ? 'same' : 'changed';
}

/** True when `file` holds exactly `bytes`. */
export function holdsBytes(file: string, bytes: Uint8Array): boolean {
  return heldBytes(file, bytes) === 'same';
}

/**
 * Runs `make` (an open or a rename into `target`'s folder), making the
 * folder on first use only rather than checking it before every file.
 */
function inFolderOf<T>(target: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(target), { recursive: true });
    return make();
  }
}

/**
 * Temp names: random per process (or thread) and counted within it, so no two
 * writers share one; drawing random bytes for every file cost as much as
 * the file's write or its rename.
 */
const TEMP_PREFIX = randomBytes(6).toString('hex');
let tempCount = 0;

/** Writes `bytes` to `target` through a temp file beside it, stamped before the rename. */
function writeAtomicSync(target: string, bytes: Uint8Array, mtime: number): void {
  const temp = `${target}.${TEMP_PREFIX}${(tempCount++).toString(36)}.tmp`;
  const fd = inFolderOf(target, () => openSync(temp, 'w'));
  try {
    try {
      writeFileSync(fd, bytes);
      futimesSync(fd, mtime, mtime);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** True when `target` already holds `bytes` (`same`: the caller has just checked); then only its stamp is made right, in case something touched the file. */
function keptAsIs(target: string, bytes: Uint8Array, mtime: number, same?: boolean): boolean {
  if (!(same ?? holdsBytes(target, bytes))) return false;
  utimesSync(target, mtime, mtime);
  return true;
}

/**
 * Writes `relative` unless it already holds `bytes`. `same` skips the check
 * when the caller has just made it.
 */
export function writeProjectionFileSync(dir: string, relative: string, bytes: Uint8Array, same?: boolean): WriteResult {
  const target = pathInside(dir, relative);
  const mtime = contentMtime(bytes);
  if (keptAsIs(target, bytes, mtime, same)) return 'unchanged';
  writeAtomicSync(target, bytes, mtime);
  return 'written';
}

/**
 * Stamps a finished file that no reader sees yet (a bundle a tool wrote to a
 * staging folder, renamed into place whole afterwards) with its
 * content-derived mtime, and returns its bytes.
 */
export function stampStagedFileSync(file: string): Buffer {
  const bytes = readFileSync(file);
  const mtime = contentMtime(bytes);
  utimesSync(file, mtime, mtime);
  return bytes;
}

/**
 * Writes `relative` straight to its name, stamped, in a folder that no
 * reader sees yet (a rebuild's staging folder, worker/jobs/rebuild-staging.ts):
 * no temp file, no rename, no look at an existing file. Refuses to replace
 * one ('wx'), so a name written twice is a loud error, never a silent mix.
 */
export function writeFreshProjectionFileSync(root: string, relative: string, bytes: Uint8Array): void {
  const target = pathInside(root, relative);
  const mtime = contentMtime(bytes);
  const fd = inFolderOf(target, () => openSync(target, 'wx'));
  try {
    writeFileSync(fd, bytes);
    futimesSync(fd, mtime, mtime);
  } finally {
    closeSync(fd);
  }
}

/** Removes `relative`; true when it existed. */
export function removeProjectionFileSync(dir: string, relative: string): boolean {
  const target = pathInside(dir, relative);
  // Most removals are of files that are not there (a sibling encoding no longer written): a failed unlink builds an
  // exception with its stack, many times the cost of this look, which throws nothing and follows no link.
  if (!lstatSync(target, { throwIfNoEntry: false })) return false;
  try {
    unlinkSync(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function writeProjectionFile(dir: string, relative: string, bytes: Buffer): Promise<WriteResult> {
  return writeProjectionFileSync(dir, relative, bytes);
}

export async function removeProjectionFile(dir: string, relative: string): Promise<boolean> {
  return removeProjectionFileSync(dir, relative);
}
