/**
 * Sends a read representation: strong content-derived ETag, 304 on a
 * matching If-None-Match, HEAD with the same headers and no body. Text
 * answers vary by Accept-Encoding: a precompressed file is sent as it is,
 * anything else large enough is compressed here, each encoding with its own
 * strong ETag.
 */
import type { Context } from 'hono';
import { encode, encodedEtag, isCompressible, type Encoding } from '../../core/encodings.ts';
import { etagOf, ifNoneMatchHits } from '../../core/etag.ts';
import { chooseEncoding } from './compression.ts';
import { CONTENT_SECURITY_POLICY, FRAME_POLICY } from '../../core/content-security-policy.ts';

export const CACHE = {
  /** Current projections: shared caches may serve briefly, then revalidate by ETag. */
  record: 'public, max-age=30, stale-while-revalidate=300',
  collection: 'public, max-age=10, stale-while-revalidate=60',
  /** Hash-named build assets never change. */
  asset: 'public, max-age=31536000, immutable',
  /** Prerendered pages change only with a deploy; revalidate by ETag after a few minutes. */
  page: 'public, max-age=300, stale-while-revalidate=3600',
  private: 'private, no-store',
} as const;

export interface Representation {
  body: Uint8Array;
  contentType: string;
  cacheControl: string;
  /** A precomputed ETag (e.g. from the file's content stamp); else derived from `body`. */
  etag?: string;
  /** A policy other than the default for HTML (a page's must match its own <meta> tag), or one for a worker script. */
  contentSecurityPolicy?: string;
  /** `body` is already in this encoding (a precompressed file); its ETag is then its own bytes'. */
  encoding?: Encoding;
  /**
   * The bytes of a file the worker writes with compressed siblings (a
   * default projection, rendered on demand or with a sibling not written
   * yet): compressed here as the worker compresses them, so the answer and
   * its ETag (the compressed bytes' own) are the file's, whichever serves it.
   */
  asStaticFile?: boolean;
}

/**
 * The headers of a representation that depend only on its kind, sent with
 * its 200 and its 304 alike (api/reads/fast-reads.ts computes them once per format).
 */
export function fixedHeaders(
  rep: Pick<Representation, 'contentType' | 'cacheControl' | 'contentSecurityPolicy'>,
): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': rep.cacheControl, 'X-Content-Type-Options': 'nosniff' };
  // Every page gets the strict policy; other files only when given one (a worker script).
  const policy =
    rep.contentSecurityPolicy ?? (rep.contentType.startsWith('text/html') ? CONTENT_SECURITY_POLICY : undefined);
  if (policy) headers['Content-Security-Policy'] = `${policy}; ${FRAME_POLICY}`;
  return headers;
}

export function sendRepresentation(c: Context, rep: Representation): Response {
  let etag = rep.etag ?? etagOf(rep.body);
  let encoding = rep.encoding;
  const compressible = rep.encoding !== undefined || isCompressible(rep.contentType, rep.body.byteLength);
  if (compressible) c.header('Vary', 'Accept-Encoding', { append: true });
  let body = rep.body;
  if (!encoding && compressible) {
    const chosen = chooseEncoding(c);
    if (chosen && rep.asStaticFile) {
      encoding = chosen;
      body = encode(rep.body, chosen, 'static');
      etag = etagOf(body);
    } else if (chosen) {
      encoding = chosen;
      etag = encodedEtag(etag, chosen);
    }
  }
  const headers: Record<string, string> = { ETag: etag, ...fixedHeaders(rep) };
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) {
    return c.body(null, 304, headers);
  }
  // Compressed only now, after the 304 check: a revalidation costs no compression.
  if (encoding && body === rep.body && !rep.encoding) body = encode(rep.body, encoding, 'dynamic');
  if (encoding) headers['Content-Encoding'] = encoding;
  headers['Content-Type'] = rep.contentType;
  headers['Content-Length'] = String(body.byteLength);
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

/** A JSON read (collections, index): pretty-printed, newline-terminated, with an ETag. */
export function sendJson(c: Context, value: unknown, cacheControl: string): Response {
  const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  return sendRepresentation(c, { body, contentType: 'application/json', cacheControl });
}

/** JSON made once (a large document read by programs, like the OpenAPI document): compact, with an ETag. */
export function sendCompactJson(c: Context, body: Buffer, cacheControl: string): Response {
  return sendRepresentation(c, { body, contentType: 'application/json', cacheControl });
}
