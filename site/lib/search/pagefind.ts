/**
 * The part of Pagefind's browser API (/pagefind/pagefind.js, published by the
 * worker) that /search uses, typed, and its loader. The index has two tiers
 * (static-search/tiers.ts): the base, in shards, and the recent pages. They
 * are opened as two Pagefind instances: the base's first shard with the
 * others merged into it with `mergeIndex`, and the recent tier alone, which
 * is small and answers first. A search ranks both together by Pagefind's
 * score, as one merged instance does, and drops base results the recent
 * tier supersedes; until the base answers, the recent tier's results can be
 * shown on their own, so a record just written is found without waiting
 * for every shard's metadata (megabytes at a million pages).
 */
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
}

export interface PagefindResult {
  id: string;
  /** Pagefind's relevance; merged indexes are ranked by it across instances. */
  score: number;
  data(): Promise<PagefindResultData>;
}

export interface PagefindSearch<R = PagefindResult> {
  results: R[];
}

export interface Pagefind<R = PagefindResult> {
  options(options: { excerptLength?: number; baseUrl?: string; basePath?: string }): Promise<void>;
  mergeIndex(indexPath: string, options?: { baseUrl?: string }): Promise<void>;
  init(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string> }): Promise<PagefindSearch<R> | null>;
}

/** `/pagefind/tiers.json`: the base's size and shards, whether a recent tier exists, and the base result ids it supersedes. */
export interface TierManifest {
  base_pages: number;
  /** Each shard's folder (`/pagefind/base-…/0/`); a manifest from before shards has none: the base is `/pagefind/`. */
  base_shards?: string[];
  recent: boolean;
  superseded: string[];
}

export interface SearchOptions {
  filters?: Record<string, string>;
}

export interface StaticIndex<R extends { id: string; score: number } = PagefindResult> {
  /**
   * Every tier's results, best first. `early` is called with the recent tier's results if they come
   * before the base's (never after the answer): a page can show them while the base loads.
   */
  search(term: string, options?: SearchOptions, early?: (results: R[]) => void): Promise<R[]>;
}

/** The instances to open: the base's shards (the first loaded, the rest merged into it) and the recent tier alone. */
export function indexGroups(manifest: TierManifest): { primary: string; merged: string[] }[] {
  const shards = manifest.base_shards ?? ['/pagefind/'];
  return [
    ...(shards.length > 0 ? [{ primary: shards[0]!, merged: shards.slice(1) }] : []),
    ...(manifest.recent ? [{ primary: '/pagefind/recent/', merged: [] }] : []),
  ];
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

/**
 * The tiers of `manifest` as one index, each group opened by `open` (the browser imports pagefind.js;
 * tests and benches import the published file with a base URL). Results of all groups are ranked by
 * score, ties in group order (base before recent), as Pagefind's own merge of instances ranks them.
 */
export function tieredIndex<R extends { id: string; score: number }>(
  manifest: TierManifest,
  open: (primary: string, merged: string[]) => Promise<Pagefind<R>>,
): StaticIndex<R> {
  const superseded = new Set(manifest.superseded);
  const groups = indexGroups(manifest).map((group) => ({
    recent: group.primary === '/pagefind/recent/',
    index: open(group.primary, group.merged),
  }));
  // A group that failed to open fails the searches that use it, not the page.
  for (const group of groups) group.index.catch(() => undefined);
  return {
    async search(term, options = {}, early) {
      let pending = groups.length;
      let settled = false;
      const searches = groups.map(async (group) => {
        const results = (await (await group.index).search(term, options))?.results ?? [];
        pending--;
        if (group.recent && pending > 0 && !settled) early?.(currentResults(results, superseded));
        return results;
      });
      const all = await Promise.all(searches).finally(() => (settled = true));
      return currentResults(
        all.flat().sort((a, b) => b.score - a.score),
        superseded,
      );
    },
  };
}

/** The index is built after deploy by the worker, so it is loaded at run time, not bundled. */
export async function loadPagefind(): Promise<StaticIndex> {
  const manifest = await fetch('/pagefind/tiers.json', { cache: 'no-cache' }).then((r) =>
    r.ok ? (r.json() as Promise<TierManifest>) : null,
  );
  // No records yet: Pagefind cannot load an index without pages, and nothing would match.
  if (manifest && manifest.base_pages === 0 && !manifest.recent) return { search: async () => [] };
  if (!manifest) throw new Error('the search index is not published yet');
  return tieredIndex(manifest, async (primary, merged) => {
    // Pagefind takes an instance's own folder from the URL of the pagefind.js it was loaded from, and each
    // URL is a module of its own: one instance per group.
    const pagefind = (await import(/* @vite-ignore */ `${primary}pagefind.js`)) as Pagefind;
    await pagefind.options({ excerptLength: 24, baseUrl: '/' });
    // Each merged index loads its own entry and metadata: at once, not one after another.
    await Promise.all(merged.map((folder) => pagefind.mergeIndex(folder, { baseUrl: '/' })));
    await pagefind.init();
    return pagefind;
  });
}
