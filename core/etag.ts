/**
 * Strong, content-derived ETags that a plain static file server reproduces.
 *
 * nginx derives an ETag from a file's mtime and size ("<hex mtime>-<hex size>").
 * The worker sets each projection file's mtime to 32 bits of the SHA-256 of
 * its bytes, so nginx, this service and every rebuild all give one ETag for
 * one content, on any server.
 */
import { hash } from 'node:crypto';

/** The mtime (seconds) a projection file with these bytes is given. */
export function contentMtime(bytes: Uint8Array): number {
  // The one-shot hash: no Hash object per call (a 100k rebuild stamps 600,000 files).
  return hash('sha256', bytes, 'buffer').readUInt32BE(0);
}

export function etagOf(bytes: Uint8Array): string {
  return `"${contentMtime(bytes).toString(16)}-${bytes.length.toString(16)}"`;
}

/** If-None-Match matches when any listed tag (weak or strong) equals ours, or "*". */
export function ifNoneMatchHits(header: string | undefined | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
