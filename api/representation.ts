/**
 * Sends a read representation: strong content-derived ETag, 304 on a
 * matching If-None-Match, HEAD with the same headers and no body.
 */
import type { Context } from 'hono';
import { etagOf, ifNoneMatchHits } from '../core/etag.ts';
import { CONTENT_SECURITY_POLICY, FRAME_POLICY } from '../site/lib/csp.ts';

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
}

export function sendRepresentation(c: Context, rep: Representation): Response {
  const etag = rep.etag ?? etagOf(rep.body);
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': rep.cacheControl,
    'X-Content-Type-Options': 'nosniff',
  };
  // Every page gets the strict policy; other files only when given one (a worker script).
  const policy = rep.contentSecurityPolicy ?? (rep.contentType.startsWith('text/html') ? CONTENT_SECURITY_POLICY : undefined);
  if (policy) headers['Content-Security-Policy'] = `${policy}; ${FRAME_POLICY}`;
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) {
    return c.body(null, 304, headers);
  }
  headers['Content-Type'] = rep.contentType;
  headers['Content-Length'] = String(rep.body.byteLength);
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(rep.body as Uint8Array<ArrayBuffer>, 200, headers);
}

/** A JSON read (collections, index): pretty-printed, newline-terminated, with an ETag. */
export function sendJson(c: Context, value: unknown, cacheControl: string): Response {
  const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  return sendRepresentation(c, { body, contentType: 'application/json', cacheControl });
}
