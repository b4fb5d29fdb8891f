/**
 * HTML pages, rendered by the built Astro site in this process: the
 * site's adapter (site/adapter/) makes `dist/server/entry.mjs` export
 * `renderPage(request, locals)`, Astro's `App.render`. The page gets the
 * record's view in `locals.view` and never reads the database. The full
 * build, the worker, a rebuild and the API's on-demand renders all run
 * these templates, so they give the same bytes.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RecordView } from '../core/schemas/views.ts';
import type { ServingState } from '../core/serving-fence.ts';

interface SiteEntry {
  renderPage(request: Request, locals: App.Locals): Promise<Response>;
}

export interface Rendered {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface HtmlRenderer {
  /** The record page of `view`, as bytes. */
  render(view: RecordView): Promise<Buffer>;
  /** Any on-demand page of the site (the account and consent pages), with what it shows in `locals`. */
  renderRoute(pathAndQuery: string, locals: App.Locals): Promise<Rendered>;
}

/** Requests never leave the process; the origin only gives the URL its shape. */
const ORIGIN = 'http://render.invalid';

/**
 * `serving` gives the serving fence's state for each render: pages rendered
 * while writes are fenced show a banner (site/layouts/Base.astro).
 */
export async function loadHtmlRenderer(
  entryPath: string,
  serving?: () => Promise<ServingState>,
): Promise<HtmlRenderer> {
  const entry = (await import(pathToFileURL(path.resolve(entryPath)).href)) as SiteEntry;
  if (typeof entry.renderPage !== 'function') {
    throw new Error(`${entryPath} does not export renderPage: build the site with its own adapter (npm run build)`);
  }
  const renderRoute = async (pathAndQuery: string, locals: App.Locals): Promise<Rendered> => {
    const state = serving ? { serving: await serving() } : {};
    const response = await entry.renderPage(new Request(ORIGIN + pathAndQuery), { ...state, ...locals });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      body: Buffer.from(await response.arrayBuffer()),
    };
  };
  return {
    renderRoute,
    async render(view: RecordView): Promise<Buffer> {
      const out = await renderRoute(view.links.html, { view });
      if (out.status !== 200) throw new Error(`rendering ${view.links.html} answered ${out.status}`);
      return out.body;
    },
  };
}
