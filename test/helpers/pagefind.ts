/**
 * Searches the Pagefind index a stack published, with Pagefind's own search
 * code (the pagefind.js the worker published), fetching over the API's
 * /pagefind/* routes, every base shard and the recent tier merged as /search
 * merges them: what a browser does, minus the browser.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tieredIndex, type Pagefind, type StaticIndex, type TierManifest } from '../../site/lib/search/pagefind.ts';
import { recordPath } from '../../site/lib/search/excerpt.ts';

export interface PublishedResult {
  id: string;
  score: number;
  data(): Promise<{ raw_url: string }>;
}

/**
 * The index `manifest` names, opened as /search opens it (site/lib/search/pagefind.ts): every base shard
 * merged into one instance and the recent tier in another, each a fresh import of the published
 * pagefind.js (it caches the index it loaded), fetched over the API at `base`.
 */
export function loadPublished(
  base: string,
  projectionsDir: string,
  manifest: TierManifest,
): StaticIndex<PublishedResult> {
  return tieredIndex<PublishedResult>(manifest, async (primary, merged) => {
    const url = `${pathToFileURL(path.join(projectionsDir, `${primary.slice(1)}pagefind.js`)).href}?fresh=${randomUUID()}`;
    const pagefind = (await import(url)) as Pagefind<PublishedResult>;
    await pagefind.options({ basePath: `${base}${primary}` });
    await Promise.all(merged.map((folder) => pagefind.mergeIndex(`${base}${folder}`)));
    return pagefind;
  });
}

async function publishedManifest(base: string): Promise<TierManifest> {
  const manifest = await fetch(`${base}/pagefind/tiers.json`).then((r) =>
    r.ok ? (r.json() as Promise<TierManifest>) : null,
  );
  if (!manifest) throw new Error('no search index is published yet');
  return manifest;
}

/**
 * The record URLs the published index finds for `term`, each as /search links it (`recordPath`: e.g.
 * `/problems/prb_…`), or as the index gives it when /search would not link it at all.
 */
export async function searchPublished(base: string, projectionsDir: string, term: string): Promise<string[]> {
  const manifest = await publishedManifest(base);
  if (manifest.base_pages === 0 && !manifest.recent) return [];
  const results = await loadPublished(base, projectionsDir, manifest).search(term);
  return Promise.all(
    results.map(async (r) => {
      const url = (await r.data()).raw_url;
      return recordPath(url) ?? url;
    }),
  );
}
