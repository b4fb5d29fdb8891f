// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// One build serves two callers: the service renders projections through the
// built middleware handler, and the worker renders the same routes to files.
export default defineConfig({
  srcDir: './site',
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  // CSS goes to files under /_astro/ so the strict CSP needs no inline styles.
  build: { inlineStylesheets: 'never' },
  // Scripts likewise: Vite would inline small ones, which `script-src 'self'` blocks.
  vite: { build: { assetsInlineLimit: 0 } },
  devToolbar: { enabled: false },
  // The service checks Origin itself where the contract asks for it.
  security: { checkOrigin: false },
});
