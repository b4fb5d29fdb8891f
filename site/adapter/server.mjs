/**
 * The server entry of the built site (see index.mjs): one App, rendering a
 * request with the locals the caller passes (the record's view).
 */
import { createApp } from 'astro/app/entrypoint';

// Not streamed: the caller wants the whole page as bytes to write or send.
const app = createApp({ streaming: false });

/**
 * Astro loads a route's page module on every request: it calls the page
 * map's `() => import(…)` and then the module's own `page()` import, two
 * dynamic imports per render that go through the module loader each time
 * (1.6 s of a 100k rebuild's main thread in `--cpu-prof`). The modules never
 * change while the process runs, so each is loaded once and kept: the same
 * module objects, the same pages.
 */
function loadPagesOnce(pageMap) {
  for (const [component, load] of pageMap ?? []) {
    let loaded;
    pageMap.set(
      component,
      () =>
        (loaded ??= load().then((mod) => {
          let page;
          return { ...mod, page: () => (page ??= mod.page()) };
        })),
    );
  }
}
loadPagesOnce(app.manifest.pageMap);

/** Renders one route of the site; `locals.view` is what a record page shows. */
export function renderPage(request, locals) {
  return app.render(request, { locals });
}
