/**
 * The serving fence's banner on rendered pages (site/layouts/Base.astro).
 *
 * Pages rendered while an operator's fence stands carry a banner saying that
 * writes are paused and why. A projection file outlives the fence, so every
 * record whose page was rendered with the banner is noted in the database
 * (`fenced_renders`), and once the fence is lowered the worker renders those
 * pages again (`renderAfterFence`, run by the catch-up sweep), which drops it.
 * A self-fence (read-only database) puts no banner in files: nothing could be
 * noted then. The API's on-demand renders show either kind.
 */
import type pg from 'pg';
import type { HtmlRenderer } from '../../projections/html.ts';
import { OPEN, type ServingFence, type ServingState } from '../../core/serving-fence.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import { forgetFencedRenders, listFencedRenders, noteFencedRender } from '../../db/queries/serving-fence.ts';
import { renderRecords } from './render-record.ts';

const BATCH = 200;

const TYPE_OF_FOLDER = new Map(Object.entries(COLLECTION).map(([type, folder]) => [folder, type as RecordRef['type']]));

/** The record whose HTML page `route` is (`/problems/prb_…`), or null for any other route. */
export function recordOfPageRoute(route: string): RecordRef | null {
  const match = /^\/([a-z]+)\/([A-Za-z0-9_]+)$/.exec(route);
  const type = match ? TYPE_OF_FOLDER.get(match[1]!) : undefined;
  return type ? { type, id: match![2]! } : null;
}

/** The state a projection file is rendered with: the operator's fence only. */
export function servingForFiles(fence: ServingFence): () => Promise<ServingState> {
  return async () => {
    const state = await fence.current();
    return state.source === 'operator' ? state : OPEN;
  };
}

/** A renderer that notes every record page it renders while the fence may stand. */
export function notingFencedPages(
  html: HtmlRenderer,
  pool: pg.Pool,
  serving: () => Promise<ServingState>,
): HtmlRenderer {
  return {
    renderRoute: (route, locals) => html.renderRoute(route, locals),
    async render(view) {
      // Before and after: a fence raised or lowered mid-render is still noted.
      const before = await serving();
      const body = await html.render(view);
      if (before.writes === 'fenced' || (await serving()).writes === 'fenced')
        await noteFencedRender(pool, { type: view.type, id: view.id });
      return body;
    },
  };
}

/** Once the operator's fence is down, renders again every page rendered with its banner; answers how many. */
export async function renderAfterFence(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  fence: ServingFence,
): Promise<number> {
  let rendered = 0;
  for (;;) {
    if ((await fence.current()).source === 'operator') return rendered;
    const { refs, readAt } = await listFencedRenders(pool, BATCH);
    await renderRecords(pool, html, dir, refs);
    // Only what was noted before this batch was read: a page noted again meanwhile (a new fence) stays noted.
    await forgetFencedRenders(pool, refs, readAt);
    rendered += refs.length;
    if (refs.length < BATCH) return rendered;
  }
}
