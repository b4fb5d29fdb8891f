/** The built site's own files: hash-named `/_astro/*` assets and prerendered pages. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import { CACHE, sendRepresentation } from '../http/representation.ts';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
};

export function createAssetHandler({ config }: AppDeps) {
  const root = path.resolve(config.ASTRO_CLIENT_DIR);
  return async function serveAsset(
    c: Context,
    relative: string,
    cacheControl: string = CACHE.asset,
    contentSecurityPolicy?: string,
  ): Promise<Response> {
    const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
    const missing = () => apiError('unknown_path', { path: new URL(c.req.url).pathname });
    if (!file.startsWith(root + path.sep)) throw missing();
    const body = await readFile(file).catch(() => null);
    if (!body) throw missing();
    return sendRepresentation(c, {
      body,
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      cacheControl,
      contentSecurityPolicy,
    });
  };
}
