// @ts-check
import { defineConfig, passthroughImageService } from 'astro/config';
import inProcessAdapter from './site/adapter/index.mjs';

// One build serves every renderer: the server entry exports renderPage()
// (site/adapter/), which the worker, a rebuild and the API call in-process.
export default defineConfig({
  srcDir: './site',
  // Files copied as they are into the build (the icon): with the site, not at the root.
  publicDir: './site/public',
  output: 'server',
  adapter: inProcessAdapter(),
  // CSS goes to files under /_astro/ so the strict CSP needs no inline styles.
  build: { inlineStylesheets: 'never' },
  // Scripts likewise: Vite would inline small ones, which `script-src 'self'` blocks.
  vite: { build: { assetsInlineLimit: 0 } },
  devToolbar: { enabled: false },
  // No images are transformed: no sharp, which the in-process adapter does not claim.
  image: { service: passthroughImageService() },
  // The service checks Origin itself where the contract asks for it.
  security: { checkOrigin: false },
});
