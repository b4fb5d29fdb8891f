/**
 * The sitemap files (sitemaps.org protocol), as pure builders: the worker
 * writes them (worker/sitemap/), the API and nginx serve them.
 */
import { recordLinks, type RecordRef } from './types.ts';

export const SITEMAP_INDEX_FILE = 'sitemap.xml';
export const SITEMAP_DIR = 'sitemaps';
/** The protocol's limit of URLs in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
/** A chunk's file name: `{collection}-{YYYY-MM-DD}` and, past the first part, `-{n}`. */
export const SITEMAP_CHUNK_FILE = /^[a-z]+-\d{4}-\d{2}-\d{2}(-\d+)?\.xml$/;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function sitemapUrlSet(
  origin: string,
  type: RecordRef['type'],
  entries: { id: string; lastmod: string }[],
): Buffer {
  const urls = entries.map(
    (e) =>
      `<url><loc>${escapeXml(origin + recordLinks({ type, id: e.id }).html)}</loc><lastmod>${e.lastmod}</lastmod></url>`,
  );
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
}

/** The index over chunk names (without .xml) and the newest lastmod in each. */
export function sitemapIndex(origin: string, chunks: Record<string, string>): Buffer {
  const lines = Object.keys(chunks)
    .sort()
    .map(
      (name) =>
        `<sitemap><loc>${escapeXml(`${origin}/${SITEMAP_DIR}/${name}.xml`)}</loc><lastmod>${chunks[name]}</lastmod></sitemap>`,
    );
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join('\n')}${lines.length ? '\n' : ''}</sitemapindex>\n`,
  );
}
