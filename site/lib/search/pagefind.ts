/**
 * The part of Pagefind's browser API (/pagefind/pagefind.js, published by the
 * worker) that /search uses, typed, and its loader.
 */
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
}

export interface PagefindSearch {
  results: { id: string; data(): Promise<PagefindResultData> }[];
}

export interface Pagefind {
  options(options: { excerptLength?: number; baseUrl?: string }): Promise<void>;
  init(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string> }): Promise<PagefindSearch | null>;
}

/** The index is built after deploy by the worker, so it is loaded at run time, not bundled. */
export async function loadPagefind(): Promise<Pagefind> {
  const url = '/pagefind/pagefind.js';
  const pagefind = (await import(/* @vite-ignore */ url)) as Pagefind;
  await pagefind.options({ excerptLength: 24, baseUrl: '/' });
  await pagefind.init();
  return pagefind;
}
