/**
 * Projection files with a precompressed sibling (`x.json.gz`), so that nginx
 * (`gzip_static`) and the service send gzip without compressing per request.
 * Siblings are written like the file itself (atomic, content-stamped mtime),
 * so each encoding's ETag is strong and its own, and before it: whoever sees
 * the new file also finds its new sibling. Brotli is not written: only the
 * service sends it, made in memory once per version (SIBLING_ENCODINGS in
 * core/encodings.ts says why).
 * Synchronous, as publish-file.ts says why; publish-pool.ts runs these in
 * worker threads or inline.
 */
import { existsSync } from 'node:fs';
import {
  ENCODING_SUFFIX,
  ENCODINGS,
  IN_MEMORY_ENCODINGS,
  SIBLING_ENCODINGS,
  encode,
  isCompressible,
  type SiblingEncoding,
} from '../core/encodings.ts';
import {
  heldBytes,
  removeProjectionFileSync,
  writeFreshProjectionFileSync,
  writeProjectionFileSync,
  type WriteResult,
} from './publish-file.ts';
import { pathInside } from './safe-path.ts';

/** The compressed siblings of a file's bytes, one per encoding written to disk. */
export type Siblings = Record<SiblingEncoding, Uint8Array>;

/** The siblings `bytes` gets, or undefined when it gets none (too small, or not text). */
export function siblingsOf(bytes: Uint8Array, contentType: string): Siblings | undefined {
  if (!isCompressible(contentType, bytes.byteLength)) return undefined;
  return { gzip: encode(bytes, 'gzip', 'static') };
}

/** Encodings an older worker wrote to disk and this one does not (a `.br`): removed when their file changes. */
const RETIRED = IN_MEMORY_ENCODINGS;

/** Writes `relative` and its compressed siblings; unchanged bytes cost no compression. */
export function writeProjectionWithSiblings(
  dir: string,
  relative: string,
  bytes: Uint8Array,
  contentType: string,
): WriteResult {
  const compressible = isCompressible(contentType, bytes.byteLength);
  const held = heldBytes(pathInside(dir, relative), bytes);
  const same = held === 'same';
  const siblingsCurrent =
    same &&
    SIBLING_ENCODINGS.every(
      (encoding) => existsSync(pathInside(dir, relative + ENCODING_SUFFIX[encoding])) === compressible,
    );
  // Left as it is for unchanged bytes (it still decodes to them); gone once they change, as nothing would update it.
  // A new file has none to remove: an older worker wrote them beside their file, and they go with it.
  if (held === 'changed')
    for (const encoding of RETIRED) removeProjectionFileSync(dir, relative + ENCODING_SUFFIX[encoding]);
  if (!siblingsCurrent) {
    const siblings = siblingsOf(bytes, contentType);
    for (const encoding of SIBLING_ENCODINGS) {
      const sibling = relative + ENCODING_SUFFIX[encoding];
      // New bytes give new siblings: they are written without reading the old ones first.
      if (siblings) writeProjectionFileSync(dir, sibling, siblings[encoding], same ? undefined : false);
      else removeProjectionFileSync(dir, sibling);
    }
  }
  return writeProjectionFileSync(dir, relative, bytes, same);
}

/**
 * The same files as writeProjectionWithSiblings, same bytes and stamps, for
 * a folder no reader sees yet (a rebuild's staging folder): each written
 * straight to its name, with nothing to compare against.
 */
export function writeFreshProjectionWithSiblings(
  root: string,
  relative: string,
  bytes: Uint8Array,
  contentType: string,
  encoded?: Siblings,
): WriteResult {
  if (isCompressible(contentType, bytes.byteLength)) {
    const siblings = encoded ?? siblingsOf(bytes, contentType)!;
    for (const encoding of SIBLING_ENCODINGS)
      writeFreshProjectionFileSync(root, relative + ENCODING_SUFFIX[encoding], siblings[encoding]);
  }
  writeFreshProjectionFileSync(root, relative, bytes);
  return 'written';
}

/** Removes `relative` and its siblings (a retired `.br` too); true when the file itself existed. */
export function removeProjectionWithSiblings(dir: string, relative: string): boolean {
  const existed = removeProjectionFileSync(dir, relative);
  for (const encoding of ENCODINGS) removeProjectionFileSync(dir, relative + ENCODING_SUFFIX[encoding]);
  return existed;
}
