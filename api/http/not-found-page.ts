/**
 * The HTML 404 for people. A browser that follows a mistyped record or page
 * URL (it asks for HTML before JSON) gets the site's 404 page
 * (site/pages/404.astro, prerendered to dist/client/404.html) with status
 * 404; every other client, and every path under /api/ or the tool-protocol
 * and OAuth endpoints, keeps the JSON Error shape. `Vary: Accept` says the
 * answer depends on it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import Negotiator from 'negotiator';
import { CONTENT_SECURITY_POLICY, FRAME_POLICY } from '../../core/content-security-policy.ts';

/** Machine endpoints: their 404s are always the Error shape. */
const MACHINE_PATHS = /^\/(api|mcp|oauth|\.well-known|pagefind|sitemaps|_astro)(\/|$)/;

/** True when this request is a person's browser reading a page: GET/HEAD of a page path, HTML preferred to JSON. */
export function prefersHtml(c: Context): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  if (MACHINE_PATHS.test(c.req.path)) return false;
  const accept = c.req.header('accept');
  if (!accept) return false;
  // JSON first: with `*/*` alone (curl, fetch) the Error shape wins.
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/html']) === 'text/html';
}

export type NotFoundPage = (c: Context) => Promise<Response | null>;

/** The HTML 404 answer for `c`, or null when this client gets the Error shape (or the page is not built). */
export function createNotFoundPage(clientDir: string): NotFoundPage {
  let page: Promise<Buffer | null> | null = null;
  return async function notFoundPage(c) {
    c.header('Vary', 'Accept', { append: true });
    if (!prefersHtml(c)) return null;
    page ??= readFile(path.join(clientDir, '404.html')).catch(() => null);
    const body = await page;
    if (!body) return null;
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; ${FRAME_POLICY}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Length': String(body.byteLength),
    };
    if (c.req.method === 'HEAD') return c.body(null, 404, headers);
    return c.body(new Uint8Array(body), 404, headers);
  };
}
