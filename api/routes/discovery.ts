/**
 * What clients and crawlers look for at well-known places: robots.txt, the
 * sitemap the worker keeps (worker/sitemap/), llms.txt and the OpenAPI
 * document at /openapi.json.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { SITEMAP_CHUNK_FILE, SITEMAP_DIR, SITEMAP_INDEX_FILE, sitemapIndex } from '../../core/sitemap.ts';
import type { AppDeps } from '../app-deps.ts';
import { llmsTxt } from '../discovery/llms-txt.ts';
import { CACHE, sendRepresentation } from '../http/representation.ts';

const TEXT = 'text/plain; charset=utf-8';
const XML = 'application/xml';

export function robotsTxt(origin: string): string {
  return `# Every public record may be crawled; accounts, operator endpoints and the tool protocol are not pages.
User-agent: *
Allow: /
Disallow: /account
Disallow: /api/ops/
Disallow: /mcp/

Sitemap: ${origin}/sitemap.xml
`;
}

export function createDiscoveryHandlers({ config }: AppDeps) {
  const robots = Buffer.from(robotsTxt(config.PUBLIC_ORIGIN));
  const llms = Buffer.from(llmsTxt(config.PUBLIC_ORIGIN));
  const readProjection = (relative: string) => readFile(path.join(config.PROJECTIONS_DIR, relative)).catch(() => null);
  return {
    robots: (c: Context) => sendRepresentation(c, { body: robots, contentType: TEXT, cacheControl: CACHE.page }),
    llms: (c: Context) => sendRepresentation(c, { body: llms, contentType: TEXT, cacheControl: CACHE.page }),
    /** Before the worker has written one, an empty index (a new service has no records). */
    async sitemapIndex(c: Context): Promise<Response> {
      const body = (await readProjection(SITEMAP_INDEX_FILE)) ?? sitemapIndex(config.PUBLIC_ORIGIN, {});
      return sendRepresentation(c, { body, contentType: XML, cacheControl: CACHE.collection });
    },
    async sitemapChunk(c: Context): Promise<Response> {
      const name = c.req.param('file') ?? '';
      const body = SITEMAP_CHUNK_FILE.test(name) ? await readProjection(`${SITEMAP_DIR}/${name}`) : null;
      if (!body) throw apiError('unknown_path', { path: new URL(c.req.url).pathname });
      return sendRepresentation(c, { body, contentType: XML, cacheControl: CACHE.collection });
    },
  };
}
