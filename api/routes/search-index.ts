/**
 * The static Pagefind bundle the worker publishes under PROJECTIONS_DIR/pagefind
 * (static-search/): the base tier, the recent tier under recent/ and tiers.json.
 * The browser's search loads them piece by piece.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { SEARCH_WORKER_CONTENT_SECURITY_POLICY } from '../../core/content-security-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import { CACHE, sendRepresentation } from '../http/representation.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  // Compressed WASM and index chunks: Pagefind fetches them as bytes and decodes them itself.
  '.pagefind': 'application/octet-stream',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_filter': 'application/octet-stream',
};

/**
 * The entries (base and recent tier) and the tier manifest name the current
 * index, so they are always revalidated; chunks are named by their content.
 */
function cacheControlOf(file: string): string {
  if (/(^|\/)pagefind-entry\.json$/.test(file) || file === 'tiers.json') return 'no-cache';
  if (/\.pf_[a-z]+$/.test(file)) return CACHE.asset;
  return CACHE.record;
}

export function createSearchIndexHandler({ config }: AppDeps) {
  const root = path.resolve(config.PROJECTIONS_DIR, 'pagefind');
  return async function serveSearchIndex(c: Context): Promise<Response> {
    const relative = c.req.path.slice('/pagefind/'.length);
    const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
    const type = TYPES[path.extname(file)];
    const body = type && file.startsWith(root + path.sep) ? await readFile(file).catch(() => null) : null;
    if (!type || !body) {
      throw apiError('unknown_path', { path: c.req.path, note: 'The search index may not be built yet.' });
    }
    return sendRepresentation(c, {
      body,
      contentType: type,
      cacheControl: cacheControlOf(relative),
      contentSecurityPolicy: /(^|\/)pagefind-worker\.js$/.test(relative)
        ? SEARCH_WORKER_CONTENT_SECURITY_POLICY
        : undefined,
    });
  };
}
