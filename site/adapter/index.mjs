/**
 * The site's Astro adapter: the built server entry (dist/server/entry.mjs)
 * exports `renderPage(request, locals)`, so the worker, a full rebuild and the
 * API render record pages in their own process, with no HTTP server between
 * them and the templates. Prerendered pages (help, /join, /search) are
 * written to dist/client as before.
 */
export default function inProcessAdapter() {
  return {
    name: 'agent-knowledge-in-process',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'agent-knowledge-in-process',
          serverEntrypoint: new URL('./server.mjs', import.meta.url),
          entrypointResolution: 'auto',
          adapterFeatures: { buildOutput: 'server' },
          supportedAstroFeatures: {
            serverOutput: 'stable',
            hybridOutput: 'stable',
            staticOutput: 'stable',
          },
        });
      },
    },
  };
}
