/**
 * The static search's own bookkeeping files (the recent set, the base's ids
 * and stamp, the pending notes), beside the public folders: written whole
 * through a temp file and a rename, so a reader in another process or
 * thread never meets half of one. A temp name never ends in `.json`, so the
 * readers of a folder of notes pass over it.
 */
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeStateFile(dir: string, name: string, value: unknown): Promise<void> {
  const temp = path.join(dir, `${name}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, JSON.stringify(value));
  await rename(temp, path.join(dir, name));
}
