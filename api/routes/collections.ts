/**
 * The recent-records collections, each in two formats from one view
 * (read-model/collection.ts): `/api/problems` (JSON, docs/api.md's paginated
 * list) and `/problems` (the HTML list, the site's template rendered here,
 * in-process, on demand). Same for solutions and discussions; `?product=`
 * narrows either to one product. The home page (`/`) is made the same way
 * from the home view (read-model/home.ts).
 *
 * Why on demand and not a projection file: every write shifts every page of
 * an offset-paginated list (and of its product's list), so files would cost a
 * re-render of every page per write. A page here costs one statement and one
 * render, is sent with a strong ETag (304 on revalidation) and
 * `Cache-Control: public, max-age=10, stale-while-revalidate=60`, so a CDN or
 * nginx cache in front absorbs repeated reads; writes cost nothing.
 */
import type { Context } from 'hono';
import type { CollectionKind } from '../../core/schemas/collection-views.ts';
import { CollectionParamsSchema } from '../../core/schemas/read-params.ts';
import { MEDIA_TYPE } from '../../projections/files.ts';
import { buildCollectionView, collectionJson } from '../../read-model/collection.ts';
import { buildHomeView } from '../../read-model/home.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkPages } from '../http/page-links.ts';
import { CACHE, sendJson, sendRepresentation } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

export function createCollectionHandlers({ pool, html }: AppDeps) {
  const viewOf = (c: Context, kind: CollectionKind) =>
    buildCollectionView(pool, kind, parseOrThrow(CollectionParamsSchema, c.req.query(), 'query'));

  const json = (kind: CollectionKind) =>
    async function listCollection(c: Context): Promise<Response> {
      const view = await viewOf(c, kind);
      linkPages(c, view);
      return sendJson(c, collectionJson(view), CACHE.collection);
    };

  const page = (kind: CollectionKind) =>
    async function showCollection(c: Context): Promise<Response> {
      const view = await viewOf(c, kind);
      const rendered = await html.renderRoute(view.links.html, { collection: view });
      if (rendered.status !== 200) throw new Error(`rendering ${view.links.html} answered ${rendered.status}`);
      linkPages(c, view);
      c.header('Link', `<${view.links.json}>; rel="alternate"; type="application/json"`, { append: true });
      return sendRepresentation(c, {
        body: rendered.body,
        contentType: MEDIA_TYPE.html,
        cacheControl: CACHE.collection,
      });
    };

  /** The home page: newest problems and best-confirmed solutions, rendered like a list (same cache rule: writes cost nothing). */
  async function homePage(c: Context): Promise<Response> {
    const rendered = await html.renderRoute('/', { home: await buildHomeView(pool) });
    if (rendered.status !== 200) throw new Error(`rendering / answered ${rendered.status}`);
    return sendRepresentation(c, { body: rendered.body, contentType: MEDIA_TYPE.html, cacheControl: CACHE.collection });
  }

  return {
    homePage,
    problems: json('problem'),
    solutions: json('solution'),
    discussions: json('discussion'),
    problemsPage: page('problem'),
    solutionsPage: page('solution'),
    discussionsPage: page('discussion'),
  };
}
