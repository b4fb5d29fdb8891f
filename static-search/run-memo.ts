/**
 * What one index run of the recent tier (tiers.ts) keeps for the next. Every
 * run indexes every page rendered since the base, so most of what it reads
 * and writes is what the run before it read and wrote: the same pages, and
 * the same content-named fragments in the bundle Pagefind gives back. Each
 * memo below holds only what the last run used and is checked before use, so
 * a run gives the files and answers it would give without it:
 *
 * - a page's text, by the file's identity (inode, size, mtime and ctime):
 *   a render replaces a page by renaming a new file into place (a new
 *   inode), and any write in place changes its ctime;
 * - a fragment's result ids, by its name and bytes;
 * - a published file, by its bytes and its identity once written or stamped:
 *   a file that still has that identity still holds those bytes and stamp,
 *   so it is neither read back nor stamped again.
 *
 * The service never writes these files in place: it renames a new file over
 * the old one, stamped with a content-derived mtime (core/etag.ts). A write
 * in place by something else is seen by its ctime, except one of the same
 * size within the file system's clock tick (a few ms) of the identity taken.
 */
import { readFileSync, statSync } from 'node:fs';

/** A file's identity as a string, or null when there is no file (or it cannot be read). */
export function fileIdentity(file: string): string | null {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s ? `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : null;
  } catch {
    return null;
  }
}

/** True when `a` and `b` hold the same bytes (compared in place, not copied). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** Page texts held at most, in UTF-16 code units: the recent tier is bounded (COMPACT_AT), this is its ceiling. */
const PAGE_MEMO_CHARS = 32 * 1024 * 1024;

export interface PageReader {
  /** The page's text, or null when it cannot be read. */
  read(file: string): string | null;
  /** Forgets every page not read since the last call: a page no longer indexed drops out. */
  endRun(): void;
}

/** Reads pages, and hands back the text of a page whose file is still the one read last run. */
export function createPageReader(maxChars = PAGE_MEMO_CHARS): PageReader {
  let held = new Map<string, { identity: string; text: string }>();
  let next = new Map<string, { identity: string; text: string }>();
  let chars = 0;
  return {
    read(file) {
      const identity = fileIdentity(file);
      if (identity === null) return null;
      const known = held.get(file);
      if (known?.identity === identity) {
        next.set(file, known);
        chars += known.text.length;
        return known.text;
      }
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return null;
      }
      // The identity is taken before the read: a file replaced in between has another by the next run, which reads it again.
      if (chars + text.length <= maxChars) {
        next.set(file, { identity, text });
        chars += text.length;
      }
      return text;
    },
    endRun() {
      held = next;
      next = new Map();
      chars = 0;
    },
  };
}

/** A bundle's fragment files, by path, with the result ids each gives (resultIdsByUrl). */
export interface FragmentMemo {
  /** `file`'s [url, id] pairs: those of the last run when its name and bytes are the same, else `parse(file)`. */
  idsOf(file: { path: string; content: Uint8Array }, parse: () => [string, string][]): [string, string][];
  endRun(): void;
}

export function createFragmentMemo(): FragmentMemo {
  let held = new Map<string, { content: Uint8Array; ids: [string, string][] }>();
  let next = new Map<string, { content: Uint8Array; ids: [string, string][] }>();
  return {
    idsOf(file, parse) {
      const known = held.get(file.path);
      const ids = known && sameBytes(known.content, file.content) ? known.ids : parse();
      next.set(file.path, { content: file.content, ids });
      return ids;
    },
    endRun() {
      held = next;
      next = new Map();
    },
  };
}

/** Files a publisher wrote (or found holding the bytes, and stamped), by absolute path. */
export interface PublishedMemo {
  /** True when `target` is the file last published there with exactly `bytes`, untouched since. */
  holds(target: string, bytes: Uint8Array): boolean;
  /** `target` now holds `bytes`, stamped: its identity is taken now. */
  published(target: string, bytes: Uint8Array): void;
  endRun(): void;
}

export function createPublishedMemo(): PublishedMemo {
  let held = new Map<string, { identity: string; bytes: Uint8Array }>();
  let next = new Map<string, { identity: string; bytes: Uint8Array }>();
  return {
    holds(target, bytes) {
      const known = held.get(target);
      if (!known || !sameBytes(known.bytes, bytes) || fileIdentity(target) !== known.identity) return false;
      next.set(target, known);
      return true;
    },
    published(target, bytes) {
      const identity = fileIdentity(target);
      if (identity !== null) next.set(target, { identity, bytes });
    },
    endRun() {
      held = next;
      next = new Map();
    },
  };
}
