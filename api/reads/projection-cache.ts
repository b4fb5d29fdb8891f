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
 * cached read's own work (bench/HISTORY.md). So an answer is never older than
 * the file as it was when the current turn began: a request sent after the
 * worker's rename was seen, on a connection that turn had not read yet, gets
 * the new file, and in the worst case (more data on a connection already
 * being read) the new file is served from the next turn, a millisecond or so.
 *
 * Bounded by bytes (least recently used go first), so the hot records stay
 * and memory does not grow with the number of records.
 *
 * Brotli is made here, not read from disk: the worker writes only the `.gz`
 * sibling nginx's `gzip_static` sends (nginx-light has no Brotli module, so
 * a `.br` on disk served only this service and cost every write a third
 * more files; docs/operating.md, The projection directory). A `<file>.br` asked of the
 * cache is the Brotli of `<file>`'s current version, compressed once at the
 * worker's quality and kept with that version (counted in the byte bound),
 * so its bytes and strong ETag are what a `.br` written by the worker had:
 * stable, per encoding, and new with each new version of the file. A `.br`
 * left on disk by an older worker is never read.
 */
import { statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import {
  ENCODING_SUFFIX,
  IN_MEMORY_ENCODINGS,
  MIN_COMPRESSIBLE_BYTES,
  encode,
  type Encoding,
} from '../../core/encodings.ts';
import { etagOf } from '../../core/etag.ts';

export interface CachedFile {
  body: Buffer;
  etag: string;
}

interface Entry extends CachedFile {
  identity: string;
  /** This version in the encodings made in memory, once each; null: too small to be worth compressing. */
  encoded?: Partial<Record<Encoding, CachedFile | null>>;
}

export interface FileCache {
  /**
   * The file's bytes and ETag, or null when there is no such file. For
   * `<file>.br`: `<file>`'s Brotli, made here (null when `<file>` is missing
   * or too small to be compressed).
   */
  read(file: string): Promise<CachedFile | null>;
  /**
   * Without reading: the cached bytes and ETag when the file is unchanged
   * since cached, null when there is no such file, undefined when it is not
   * cached (or changed): then `read` it.
   */
  peek(file: string): CachedFile | null | undefined;
}

const identityOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/** The encodings made in memory, by the suffix a sibling on disk would have had. */
const IN_MEMORY = IN_MEMORY_ENCODINGS.map((encoding) => ({ encoding, suffix: ENCODING_SUFFIX[encoding] }));

/** `x.json.br` → `x.json` and 'br' when that encoding is made in memory; null for any other file. */
function inMemoryEncoding(file: string): { of: string; encoding: Encoding } | null {
  for (const { encoding, suffix } of IN_MEMORY)
    if (file.endsWith(suffix)) return { of: file.slice(0, -suffix.length), encoding };
  return null;
}

const sizeOf = (e: Entry) => {
  let bytes = e.body.byteLength;
  for (const made of Object.values(e.encoded ?? {})) bytes += made?.body.byteLength ?? 0;
  return Math.max(1, bytes);
};

export function createFileCache(maxBytes: number): FileCache {
  const entries = maxBytes > 0 ? new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: sizeOf }) : null;

  /**
   * `entry` (the version of `file` just peeked or read) in `encoding`, compressed on first use.
   * Projection files are all text: as the worker decides for its siblings, size alone says whether to compress.
   */
  function encodedOf(file: string, entry: Entry, encoding: Encoding): CachedFile | null {
    let made = entry.encoded?.[encoding];
    if (made === undefined) {
      const body = entry.body.byteLength >= MIN_COMPRESSIBLE_BYTES ? encode(entry.body, encoding, 'static') : null;
      made = body && { body, etag: etagOf(body) };
      (entry.encoded ??= {})[encoding] = made;
      // Put back, so that the bound counts the new bytes (lru-cache sizes a value when it is added, and
      // setting the same value again keeps the old size); an entry grown past the whole bound stays out.
      if (entries && entries.peek(file) === entry) {
        entries.delete(file);
        if (sizeOf(entry) <= entries.maxSize) entries.set(file, entry);
      }
    }
    return made;
  }

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
    const derived = inMemoryEncoding(file);
    if (derived) {
      const entry = peekEntry(derived.of);
      return entry ? encodedOf(derived.of, entry, derived.encoding) : entry;
    }
    return peekEntry(file);
  }

  function peekEntry(file: string): Entry | null | undefined {
    const identity = identityThisTurn(file);
    if (identity === null) {
      entries?.delete(file);
      return null;
    }
    const cached = entries?.get(file);
    return cached && cached.identity === identity ? cached : undefined;
  }

  async function readEntry(file: string): Promise<Entry | null> {
    const cached = peekEntry(file);
    if (cached !== undefined) return cached;
    const loaded = await load(file);
    if (loaded && entries && loaded.body.byteLength <= entries.maxSize) entries.set(file, loaded);
    return loaded;
  }

  return {
    peek,
    async read(file) {
      const derived = inMemoryEncoding(file);
      if (derived) {
        const entry = await readEntry(derived.of);
        return entry && encodedOf(derived.of, entry, derived.encoding);
      }
      return readEntry(file);
    },
  };
}
