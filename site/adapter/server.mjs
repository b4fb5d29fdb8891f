/**
 * The server entry of the built site (see index.mjs): one App, rendering a
 * request with the locals the caller passes (the record's view).
 */
import { createApp } from 'astro/app/entrypoint';

// Not streamed: the caller wants the whole page as bytes to write or send.
const app = createApp({ streaming: false });

/** Renders one route of the site; `locals.view` is what a record page shows. */
export function renderPage(request, locals) {
  return app.render(request, { locals });
}

