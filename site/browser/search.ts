/**
 * /search in the browser: runs Pagefind against the static index and shows
 * the results as text. Titles, products and excerpts come from untrusted
 * records, so every one becomes a text node (see lib/search/excerpt.ts).
 */
import { labelOf } from '../lib/labels.ts';
import { parseExcerpt, recordPath } from '../lib/search/excerpt.ts';
import {
  loadPagefind,
  type PagefindResult,
  type PagefindResultData,
  type StaticIndex,
} from '../lib/search/pagefind.ts';

/** Results shown per search; Pagefind loads each result's fragment only when asked. */
const SHOWN = 20;
const TYPES = new Set(['problem', 'solution', 'discussion']);

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
let pagefind: Promise<StaticIndex> | null = null;
/** Only the latest search may write the results, however the answers interleave. */
let generation = 0;

function setStatus(text: string): void {
  $('search-status').textContent = text;
}

function renderResult(data: PagefindResultData): HTMLLIElement | null {
  const href = recordPath(data.url);
  if (!href) return null;
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = href;
  link.textContent = data.meta.title ?? href;
  item.append(link);
  const standing =
    data.meta.standing === 'confirmed' ? 'Confirmed' : data.meta.standing === 'disputed' ? 'Disputed' : undefined;
  for (const value of [data.meta.type && labelOf(data.meta.type), data.meta.product, standing]) {
    if (!value) continue;
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.textContent = value;
    item.append(' ', badge);
  }
  const excerpt = document.createElement('p');
  excerpt.className = 'excerpt';
  for (const part of parseExcerpt(data.excerpt)) {
    if (part.mark) {
      const mark = document.createElement('mark');
      mark.textContent = part.text;
      excerpt.append(mark);
    } else {
      excerpt.append(document.createTextNode(part.text));
    }
  }
  item.append(excerpt);
  return item;
}

async function run(query: string, type: string): Promise<void> {
  const mine = ++generation;
  const list = $('search-results');
  if (query === '') {
    list.replaceChildren();
    setStatus('');
    return;
  }
  setStatus('Searching…');
  // The recent tier's results may come first (lib/search/pagefind.ts): shown until every tier has answered.
  let answered = false;
  const show = async (results: PagefindResult[], complete: boolean) => {
    const items = (await Promise.all(results.slice(0, SHOWN).map(async (r) => renderResult(await r.data())))).filter(
      (item): item is HTMLLIElement => item !== null,
    );
    if (mine !== generation || (!complete && answered)) return;
    list.replaceChildren(...items);
    const more = results.length > SHOWN ? ` (showing the first ${SHOWN})` : '';
    const count = `${results.length} result${results.length === 1 ? '' : 's'}`;
    setStatus(
      !complete
        ? `Searching… ${count} among recent records so far.`
        : results.length === 0
          ? `No records match “${query}”.`
          : `${count} for “${query}”${more}.`,
    );
  };
  try {
    pagefind ??= loadPagefind();
    const index = await pagefind;
    const filters = TYPES.has(type) ? { filters: { type } } : {};
    const results = await index.search(query, filters, (recent) => {
      if (recent.length > 0) void show(recent, false).catch(() => undefined);
    });
    answered = true;
    await show(results, true);
  } catch {
    if (mine !== generation) return;
    answered = true;
    pagefind = null; // try loading again next time: the index may be published by then
    list.replaceChildren();
    setStatus('Search is unavailable right now: the index could not be loaded. The read API (/api/v1) still works.');
  }
}

function start(): void {
  const form = $<HTMLFormElement>('search-form');
  const input = $<HTMLInputElement>('search-input');
  const type = $<HTMLSelectElement>('search-type');
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  type.value = TYPES.has(params.get('type') ?? '') ? params.get('type')! : '';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = input.value.trim();
    // The query (never a secret) goes into the URL so a search can be shared and reloaded.
    const next = new URLSearchParams();
    if (query) next.set('q', query);
    if (type.value) next.set('type', type.value);
    history.replaceState(null, '', next.size > 0 ? `/search?${next}` : '/search');
    void run(query, type.value);
  });
  void run(input.value.trim(), type.value);
}

start();
