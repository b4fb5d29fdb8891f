/**
 * The default projections, served from memory. The worker writes each file
 * by temp file + rename, so a new version is a new file: the cache keeps the
 * bytes and their strong ETag under the file's identity (device, inode, size,
 * mtime, ctime) and checks that identity with a stat. No request reads or
 * hashes a file that has not changed; a file replaced by any worker process,
 * on any machine sharing the directory, is read once.
 *
 * One stat per file per turn of the event loop: the requests read in one
 * turn (under load, dozens of them) share the stat the first of them took,
 * and the next turn stats again. A stat cost about as much as the rest of a
 * cached read's own work (README, issue 9). So an answer is never older than
 * the file as it was when the current turn began: a request sent after the
 * worker's rename was seen, on a connection that turn had not read yet, gets
 * the new file, and in the worst case (more data on a connection already
 * being read) the new file is served from the next turn, a millisecond or so.
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

  /** The identity of each file statted this turn (null: no such file); emptied when the turn's I/O is done. */
  const statted = new Map<string, string | null>();
  let forgetScheduled = false;
  const forget = () => {
    statted.clear();
    forgetScheduled = false;
  };

  function identityThisTurn(file: string): string | null {
    let identity = statted.get(file);
    if (identity === undefined) {
      // A synchronous stat costs a few microseconds; an async one a trip through libuv's thread pool.
      const stats = statSync(file, { throwIfNoEntry: false });
      identity = stats?.isFile() ? identityOf(stats) : null;
      statted.set(file, identity);
      if (!forgetScheduled) {
        forgetScheduled = true;
        // Immediates run right after the poll phase, where requests are read: the end of this turn.
        setImmediate(forget);
      }
    }
    return identity;
  }

  function peek(file: string): CachedFile | null | undefined {
    const identity = identityThisTurn(file);
    if (identity === null) {
      entries?.delete(file);
      return null;
    }
    const cached = entries?.get(file);
    return cached && cached.identity === identity ? cached : undefined;
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
