/**
 * Projection files with precompressed siblings (`x.json.br`, `x.json.gz`), so
 * that nginx (`gzip_static`) and the service send compressed bytes without
 * compressing per request. Siblings are written like the file itself
 * (atomic, content-stamped mtime), so each encoding's ETag is strong and its
 * own, and before it: whoever sees the new file also finds its new siblings.
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ENCODING_SUFFIX, ENCODINGS, encode, isCompressible } from '../../core/encodings.ts';
import { removeProjectionFile, writeProjectionFile, type WriteResult } from '../../projections/publish-file.ts';

const exists = (file: string) => access(file).then(() => true, () => false);

async function siblingsCurrent(dir: string, relative: string, bytes: Buffer, compressible: boolean): Promise<boolean> {
  const existing = await readFile(path.join(dir, relative)).catch(() => null);
  if (!existing?.equals(bytes)) return false;
  for (const encoding of ENCODINGS) {
    if ((await exists(path.join(dir, relative + ENCODING_SUFFIX[encoding]))) !== compressible) return false;
  }
  return true;
}

/** Writes `relative` and its compressed siblings; unchanged bytes cost no compression. */
export async function writeProjectionWithSiblings(dir: string, relative: string, bytes: Buffer, contentType: string): Promise<WriteResult> {
  const compressible = isCompressible(contentType, bytes.byteLength);
  if (!(await siblingsCurrent(dir, relative, bytes, compressible))) {
    for (const encoding of ENCODINGS) {
      const sibling = relative + ENCODING_SUFFIX[encoding];
      if (compressible) await writeProjectionFile(dir, sibling, encode(bytes, encoding, 'static'));
      else await removeProjectionFile(dir, sibling);
    }
  }
  return writeProjectionFile(dir, relative, bytes);
}

/** Removes `relative` and its siblings; true when the file itself existed. */
export async function removeProjectionWithSiblings(dir: string, relative: string): Promise<boolean> {
  const existed = await removeProjectionFile(dir, relative);
  for (const encoding of ENCODINGS) await removeProjectionFile(dir, relative + ENCODING_SUFFIX[encoding]);
  return existed;
}
