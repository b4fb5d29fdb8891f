/**
 * Writes projection files atomically (temp file + rename, so a reader never
 * sees half a file) and stamps each with its content-derived mtime (see
 * core/etag.ts). Unchanged bytes are left alone, so a full rebuild rewrites
 * only what changed.
 */
import { mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { contentMtime } from '../core/etag.ts';
import { pathInside } from './safe-path.ts';

export type WriteResult = 'written' | 'unchanged';

export async function writeProjectionFile(dir: string, relative: string, bytes: Buffer): Promise<WriteResult> {
  const target = pathInside(dir, relative);
  const existing = await readFile(target).catch(() => null);
  const mtime = contentMtime(bytes);
  if (existing && existing.equals(bytes)) {
    // Keep the stamp right even if something touched the file.
    await utimes(target, mtime, mtime);
    return 'unchanged';
  }
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, bytes);
  await utimes(temp, mtime, mtime);
  await rename(temp, target);
  return 'written';
}

export async function removeProjectionFile(dir: string, relative: string): Promise<boolean> {
  const target = pathInside(dir, relative);
  const existed = await readFile(target).then(() => true, () => false);
  await rm(target, { force: true });
  return existed;
}
