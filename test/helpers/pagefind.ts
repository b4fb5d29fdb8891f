/**
 * Searches the Pagefind index a stack published, with Pagefind's own search
 * code (the pagefind.js the worker published), fetching over the API's
 * /pagefind/* routes, every base shard and the recent tier merged as /search
 * merges them: what a browser does, minus the browser.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { currentResults, indexFolders, type TierManifest } from '../../site/lib/search/pagefind.ts';

interface PagefindModule {
  options(o: { basePath: string }): Promise<void>;
  mergeIndex(indexPath: string): Promise<void>;
  search(term: string): Promise<{ results: { id: string; data(): Promise<{ raw_url: string }> }[] }>;
}

/**
 * A fresh instance of the published pagefind.js (it caches the index it loaded) with every shard and the recent
 * tier `manifest` names merged, fetched over the API at `base`.
 */
export async function loadPublished(
  base: string,
  projectionsDir: string,
  manifest: TierManifest,
): Promise<PagefindModule> {
  const { primary, merged } = indexFolders(manifest);
  const url = `${pathToFileURL(path.join(projectionsDir, `${primary.slice(1)}pagefind.js`)).href}?fresh=${randomUUID()}`;
  const pagefind = (await import(url)) as PagefindModule;
  await pagefind.options({ basePath: `${base}${primary}` });
  await Promise.all(merged.map((folder) => pagefind.mergeIndex(`${base}${folder}`)));
  return pagefind;
}

/** The record URLs (e.g. `/problems/prb_…`) the published index finds for `term`. */
export async function searchPublished(base: string, projectionsDir: string, term: string): Promise<string[]> {
  const manifest = await fetch(`${base}/pagefind/tiers.json`).then((r) =>
    r.ok ? (r.json() as Promise<TierManifest>) : null,
  );
  if (!manifest) throw new Error('no search index is published yet');
  if (manifest.base_pages === 0 && !manifest.recent) return [];
  const pagefind = await loadPublished(base, projectionsDir, manifest);
  const { results } = await pagefind.search(term);
  const current = currentResults(results, new Set(manifest.superseded));
  return Promise.all(current.map(async (r) => (await r.data()).raw_url));
}
