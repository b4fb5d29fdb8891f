/**
 * Content codings the service sends (RFC 9110 §8.4): Brotli and gzip, made
 * by node:zlib. Each encoding of a representation has its own strong ETag
 * (docs/api.md, Decisions).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';
/** In the server's order of preference when the client weighs them equally. */
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];
/** The file suffix of a precompressed sibling (`problems/prb_….json.gz`). */
export const ENCODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
/**
 * The encodings the worker writes to disk beside each projection: gzip only,
 * the one nginx sends (`gzip_static`; nginx-light has no Brotli module).
 * Brotli is made by the service in memory, once per file version
 * (api/reads/projection-cache.ts): a `.br` on disk was a third of every write's
 * and every rebuild's files, read by nobody but the service.
 */
export const SIBLING_ENCODINGS = ['gzip'] as const satisfies readonly Encoding[];
export type SiblingEncoding = (typeof SIBLING_ENCODINGS)[number];
/** The others: made from the file's bytes in memory by whoever sends them. */
export const IN_MEMORY_ENCODINGS: readonly Encoding[] = ENCODINGS.filter(
  (e) => !(SIBLING_ENCODINGS as readonly Encoding[]).includes(e),
);

/** Below this, compression saves less than its headers and CPU cost. */
export const MIN_COMPRESSIBLE_BYTES = 512;
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|xml|javascript)|image\/svg\+xml)/;

export function isCompressible(contentType: string, bytes: number): boolean {
  return bytes >= MIN_COMPRESSIBLE_BYTES && COMPRESSIBLE_TYPE.test(contentType);
}

/**
 * Brotli quality of files compressed once and served many times (the
 * projections' Brotli, made once per version by the service; until
 * November 2026 the worker's `.br` siblings, whose bytes and ETags the
 * service's match). 5, not 9, measured with
 * bench/compression-levels.ts over a seeded 10k rebuild's output (2,000
 * files per format; HTML 2.9 KB, JSON 1.7 KB, Markdown 1.1 KB on average):
 * quality 9 took 0.119 / 0.074 / 0.056 ms per HTML / JSON / Markdown file and
 * quality 5 0.068 / 0.048 / 0.040 ms (load 1.9); fastest of 5 rounds at
 * load 10: 0.088 / 0.063 / 0.052 against 0.077 / 0.054 / 0.041 ms. So 15-37 %
 * less Brotli CPU for the same bytes within 0.2 % (1,092 → 1,091, 613 → 614,
 * 510 → 511 B). Quality 4 gives 6 % larger files; 11 took 3.9 ms per HTML
 * file (33× quality 9) for 14 % less. gzip 6 and 9 cost and weigh the same
 * on files this small, so gzip stays at 9. Like 9, quality 5 is
 * deterministic (same bytes in, same bytes out).
 */
const STATIC_BROTLI_QUALITY = 5;

/**
 * `quality: 'static'` for files written once and served many times (the
 * worker's projections); `'dynamic'` for answers compressed per request.
 * Both are deterministic: the same bytes give the same output, so the
 * content-derived ETag of a compressed file is stable across re-renders.
 */
export function encode(bytes: Uint8Array, encoding: Encoding, quality: 'static' | 'dynamic'): Buffer {
  if (encoding === 'gzip') return gzipSync(bytes, { level: quality === 'static' ? 9 : 6 });
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality === 'static' ? STATIC_BROTLI_QUALITY : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(bytes.byteLength),
    },
  });
}

/**
 * The smallest Brotli window that holds the whole input. Brotli's default
 * window (4 MiB) makes every call allocate and clear buffers sized for it:
 * for a page of a few KiB that was 95% of the cost of quality 9 (7.3 ms
 * against 0.4 ms per projection file, measured on this repo's rebuild
 * output), with the same compressed size, since a window larger than the
 * input finds no more matches. A window of 2^bits holds 2^bits - 16 bytes.
 */
function brotliWindowBits(byteLength: number): number {
  const { BROTLI_MIN_WINDOW_BITS: min, BROTLI_MAX_WINDOW_BITS: max } = constants;
  return Math.min(max, Math.max(min, Math.ceil(Math.log2(byteLength + 16))));
}

/** The ETag of an encoding derived from the identity's, for answers compressed per request. */
export function encodedEtag(identityEtag: string, encoding: Encoding): string {
  return identityEtag.replace(/"$/, `-${encoding}"`);
}
