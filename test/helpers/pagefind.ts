/**
 * Searches the Pagefind index a stack published, with Pagefind's own search
 * code (the pagefind.js the worker published), fetching over the API's
 * /pagefind/* routes: what a browser does, minus the browser.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface PagefindResult {
  data(): Promise<{ raw_url: string; meta: Record<string, string>; filters: Record<string, string[]>; excerpt: string }>;
}
interface PagefindModule {
  options(o: { basePath: string }): Promise<void>;
  search(term: string): Promise<{ results: PagefindResult[] }>;
}

/** The record URLs (e.g. `/problems/prb_…`) the published index finds for `term`. */
export async function searchPublished(base: string, projectionsDir: string, term: string): Promise<string[]> {
  // A fresh module instance each time: pagefind.js caches the index it loaded.
  const url = `${pathToFileURL(path.join(projectionsDir, 'pagefind', 'pagefind.js')).href}?fresh=${randomUUID()}`;
  const pagefind = (await import(url)) as PagefindModule;
  await pagefind.options({ basePath: `${base}/pagefind/` });
  const { results } = await pagefind.search(term);
  return Promise.all(results.map(async (r) => (await r.data()).raw_url));
}
