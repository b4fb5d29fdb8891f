/**
 * Content negotiation (RFC 9110 §12), with `negotiator` (the parser Express
 * and Koa use) so that q-values, wildcards and specificity are read the way
 * every other server reads them.
 *
 * - A canonical record URL (`/problems/prb_…`, no suffix) answers the HTML,
 *   JSON or Markdown twin by `Accept`, always with `Vary: Accept`, and says
 *   which twin it sent in `Content-Location`. The suffixed twins never
 *   negotiate. An Accept that none of the three satisfies gets HTML, as
 *   browsers' catch-all requests expect.
 * - API paths produce JSON only: an `Accept` that excludes JSON is 406.
 */
import Negotiator from 'negotiator';
import type { Context, MiddlewareHandler } from 'hono';
import { apiError } from '../../core/errors.ts';
import type { ProjectionFormat } from '../../projections/files.ts';

/**
 * In order of preference when the client has none (`*\/*`). Offered with the
 * charset every twin is in: negotiator, as RFC 9110 reads, skips a range
 * whose parameters the offer lacks, so `application/json; charset=utf-8`,
 * which some HTTP libraries send by default, matched nothing (406 on the API).
 */
const RECORD_MEDIA: [string, ProjectionFormat][] = [
  ['text/html; charset=utf-8', 'html'],
  ['application/json; charset=utf-8', 'json'],
  ['text/markdown; charset=utf-8', 'markdown'],
];
const JSON_MEDIA = RECORD_MEDIA[1]![0];
const SUFFIX: Record<ProjectionFormat, string> = { html: '', json: '.json', markdown: '.md' };

/**
 * An empty Accept reads as none (any type): RFC 9110 allows the empty list,
 * clients that send one mean nothing by it, and nginx, which answers from
 * disk in front of the service, cannot tell the two apart.
 */
function preferred(accept: string | undefined, available: string[]): string | undefined {
  return new Negotiator({ headers: { accept: accept?.trim() ? accept : '*/*' } }).mediaType(available);
}

/**
 * Answers remembered by header: parsing an Accept cost more than the rest of
 * a cached read, and clients send few distinct ones. Bounded, since the
 * header is the client's to choose.
 */
function remembered<T>(decide: (accept: string | undefined) => T): (accept: string | undefined) => T {
  const answers = new Map<string | undefined, T>();
  return function rememberedAnswer(accept) {
    if (answers.has(accept)) return answers.get(accept)!;
    const answer = decide(accept);
    if (answers.size >= 256) answers.clear();
    answers.set(accept, answer);
    return answer;
  };
}

/** The twin a canonical record URL answers with, for this request's `Accept`. */
export const recordFormatFor = remembered(function recordFormat(accept): ProjectionFormat {
  const type = preferred(
    accept,
    RECORD_MEDIA.map(([media]) => media),
  );
  return RECORD_MEDIA.find(([media]) => media === type)?.[1] ?? 'html';
});

/** The Content-Location suffix of a negotiated twin ('' for HTML, which is the URL itself). */
export const TWIN_SUFFIX = SUFFIX;

/** Whether an API path may answer this `Accept` (JSON is all the API produces). */
export const acceptsJson = remembered((accept) => preferred(accept, [JSON_MEDIA]) !== undefined);

/**
 * The projection name to serve for `/{folder}/{name}`: a suffixed twin as
 * asked, a bare id negotiated by Accept (and marked so in `Vary`).
 */
export function negotiateRecordName(c: Context, name: string): string {
  if (name.includes('.')) return name;
  c.header('Vary', 'Accept', { append: true });
  const format = recordFormatFor(c.req.header('accept'));
  if (format !== 'html') {
    // The twin of this very answer: a pinned revision or a page of its lists is part of the name.
    const url = c.req.url;
    const query = url.indexOf('?');
    c.header('Content-Location', `${c.req.path}${SUFFIX[format]}${query === -1 ? '' : url.slice(query)}`);
  }
  return `${name}${SUFFIX[format]}`;
}

/** Paths under /api/ whose answers are JSON only; the tool protocol negotiates by its own rules. */
const JSON_ONLY = /^\/api\//;

export function refuseUnacceptableMedia(): MiddlewareHandler {
  return async function requireAcceptableMedia(c, next) {
    const accept = c.req.header('accept');
    if (accept !== undefined && c.req.method !== 'OPTIONS' && JSON_ONLY.test(c.req.path) && !acceptsJson(accept)) {
      throw apiError('unsupported_accept', { accept: accept.slice(0, 200) });
    }
    await next();
  };
}
