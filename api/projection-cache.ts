/**
 * The default projections, served from memory. The worker writes each file
 * by temp file + rename, so a new version is a new file: the cache keeps the
 * bytes and their strong ETag under the file's identity (device, inode, size,
 * mtime, ctime) and checks that identity with one stat per request. No
 * request reads or hashes a file that has not changed; a file replaced by
 * any worker process, on any machine sharing the directory, is read once.
 *
 * Bounded by bytes (least recently used go first), so the hot records stay
 * and memory does not grow with the number of records.
 */
import { statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { etagOf } from '../core/etag.ts';

export interface CachedFile {
  body: Buffer;
  etag: string;
}

interface Entry extends CachedFile {
  identity: string;
}

export interface FileCache {
  /** The file's bytes and ETag, or null when there is no such file. */
  read(file: string): Promise<CachedFile | null>;
  /**
   * Without reading: the cached bytes and ETag when the file is unchanged
   * since cached, null when there is no such file, undefined when it is not
   * cached (or changed): then `read` it.
   */
  peek(file: string): CachedFile | null | undefined;
}

const identityOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

export function createFileCache(maxBytes: number): FileCache {
  const entries = maxBytes > 0
    ? new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: (e) => Math.max(1, e.body.byteLength) })
    : null;

  /** Reads the bytes and the identity from one open file, so they belong together. */
  async function load(file: string): Promise<Entry | null> {
    const handle = await open(file, 'r').catch(() => null);
    if (!handle) return null;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return null;
      const body = await handle.readFile();
      return { body, etag: etagOf(body), identity: identityOf(stats) };
    } finally {
      await handle.close();
    }
  }

  function peek(file: string): CachedFile | null | undefined {
    // A synchronous stat costs a few microseconds; an async one a trip through libuv's thread pool.
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats?.isFile()) {
      entries?.delete(file);
      return null;
    }
    const cached = entries?.get(file);
    return cached && cached.identity === identityOf(stats) ? cached : undefined;
  }

  return {
    peek,
    async read(file) {
      const cached = peek(file);
      if (cached !== undefined) return cached;
      const loaded = await load(file);
      if (loaded && entries && loaded.body.byteLength <= entries.maxSize) entries.set(file, loaded);
      return loaded;
    },
  };
}
