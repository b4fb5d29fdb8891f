/**
 * CORS for public reads: a browser app on any origin may read the public
 * record, search and API answers and the headers a client needs (ETag,
 * RateLimit-*, Link, X-Request-Id, Retry-After, Location). No credentials are
 * ever allowed (`Access-Control-Allow-Origin: *`, never with
 * `Allow-Credentials`), and the account and OAuth pages (cookie sessions),
 * the operator endpoints and the tool protocol get no CORS headers at all.
 *
 * Written here rather than with hono/cors: that middleware answers every
 * OPTIONS itself with 204, before routing, so unknown paths would pass a
 * preflight and known ones would lose their `Allow` list. Here routing
 * answers OPTIONS (204 + Allow, or 404) and the preflight headers are added
 * to that answer, granting only the read methods the path has.
 */
import type { MiddlewareHandler } from 'hono';

/** Paths that are never shared across origins: cookie sessions, OAuth, operators, tools. */
const PRIVATE_PREFIXES = [
  '/account',
  '/oauth',
  '/auth',
  '/.well-known/oauth',
  '/.well-known/openid',
  '/api/ops',
  '/api/account',
  '/mcp',
];

export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Link',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'Vary',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];
/** Request headers a read may carry beyond the CORS-safelisted ones. */
const ALLOWED_REQUEST_HEADERS = ['Accept', 'If-None-Match', 'X-Request-Id'];
const READ_METHODS = ['GET', 'HEAD'];
/** Browsers cap this (Chromium at 2 h); one day lets the others cache preflights too. */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/**
 * The headers of every GET/HEAD answer of a cross-origin readable path, whether or not the request named
 * an Origin: the answers are publicly cacheable and vary by neither, so a copy a CDN or a browser cache
 * stored for a request without an Origin must serve a cross-origin page as well.
 */
export const PUBLIC_READ_CORS_HEADERS: readonly [string, string][] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', ')],
];

export function isCrossOriginReadable(pathname: string): boolean {
  return !PRIVATE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export function publicReadCors(): MiddlewareHandler {
  return async function allowCrossOriginReads(c, next) {
    await next();
    if (!isCrossOriginReadable(c.req.path)) return;
    const preflight =
      c.req.method === 'OPTIONS' &&
      c.req.header('origin') !== undefined &&
      c.req.header('access-control-request-method') !== undefined;
    if (preflight) {
      const allow = (c.res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      const methods = READ_METHODS.filter((m) => allow.includes(m));
      // A path with no read (a write-only path, or none at all) grants nothing: the browser refuses.
      if (c.res.status !== 204 || methods.length === 0) return;
      c.res.headers.set('Access-Control-Allow-Methods', methods.join(', '));
      c.res.headers.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS.join(', '));
      c.res.headers.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    } else if (!READ_METHODS.includes(c.req.method)) {
      return;
    }
    if (preflight) c.res.headers.set('Access-Control-Allow-Origin', '*');
    else for (const [name, value] of PUBLIC_READ_CORS_HEADERS) c.res.headers.set(name, value);
  };
}
