/**
 * The part of Pagefind's browser API (/pagefind/pagefind.js, published by the
 * worker) that /search uses, typed, and its loader. The index has two tiers
 * (static-search/tiers.ts): the base, in shards, and the recent pages; the
 * first shard is loaded and the other shards and the recent tier merged into
 * it with `mergeIndex`; base results the recent tier supersedes are dropped.
 */
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
}

export interface PagefindResult {
  id: string;
  data(): Promise<PagefindResultData>;
}

export interface PagefindSearch {
  results: PagefindResult[];
}

export interface Pagefind {
  options(options: { excerptLength?: number; baseUrl?: string }): Promise<void>;
  mergeIndex(indexPath: string, options?: { baseUrl?: string }): Promise<void>;
  init(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string> }): Promise<PagefindSearch | null>;
}

/** `/pagefind/tiers.json`: the base's size and shards, whether a recent tier exists, and the base result ids it supersedes. */
export interface TierManifest {
  base_pages: number;
  /** Each shard's folder (`/pagefind/base-…/0/`); a manifest from before shards has none: the base is `/pagefind/`. */
  base_shards?: string[];
  recent: boolean;
  superseded: string[];
}

export interface StaticIndex {
  search(term: string, options?: { filters?: Record<string, string> }): Promise<PagefindResult[]>;
}

/** The folders to search, the one to load first: every base shard, then the recent tier. */
export function indexFolders(manifest: TierManifest): { primary: string; merged: string[] } {
  const folders = [...(manifest.base_shards ?? ['/pagefind/']), ...(manifest.recent ? ['/pagefind/recent/'] : [])];
  return { primary: folders[0]!, merged: folders.slice(1) };
}

/** Results without base copies the recent tier supersedes, each page once (a page unchanged since the base is in both). */
export function currentResults<T extends { id: string }>(results: T[], superseded: ReadonlySet<string>): T[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    if (superseded.has(r.id) || seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  });
}

/** The index is built after deploy by the worker, so it is loaded at run time, not bundled. */
export async function loadPagefind(): Promise<StaticIndex> {
  const manifest = await fetch('/pagefind/tiers.json', { cache: 'no-cache' }).then((r) =>
    r.ok ? (r.json() as Promise<TierManifest>) : null,
  );
  // No records yet: Pagefind cannot load an index without pages, and nothing would match.
  if (manifest && manifest.base_pages === 0 && !manifest.recent) return { search: async () => [] };
  if (!manifest) throw new Error('the search index is not published yet');
  const { primary, merged } = indexFolders(manifest);
  // Pagefind takes the primary index's folder from the URL of the pagefind.js it was loaded from.
  const url = `${primary}pagefind.js`;
  const pagefind = (await import(/* @vite-ignore */ url)) as Pagefind;
  await pagefind.options({ excerptLength: 24, baseUrl: '/' });
  // Each merged index loads its own entry and metadata: at once, not one after another.
  await Promise.all(merged.map((folder) => pagefind.mergeIndex(folder, { baseUrl: '/' })));
  await pagefind.init();
  const superseded = new Set(manifest.superseded);
  return {
    async search(term, options) {
      return currentResults((await pagefind.search(term, options))?.results ?? [], superseded);
    },
  };
}
