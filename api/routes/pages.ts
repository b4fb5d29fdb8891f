/**
 * The prerendered pages (`export const prerender = true` in site/pages):
 * help in three media types and the browser pages. Astro writes them to the
 * client build; the API serves them like any other static file.
 */
import { SEARCH_CONTENT_SECURITY_POLICY } from '../../core/content-security-policy.ts';

export interface StaticPage {
  /** The public path. */
  path: string;
  /** The file under the client build directory; its extension gives the media type. */
  file: string;
  /** When the page needs more than the default policy; the page's <meta> tag says the same. */
  contentSecurityPolicy?: string;
}

export const STATIC_PAGES: readonly StaticPage[] = [
  { path: '/agent-help/authentication', file: 'agent-help/authentication/index.html' },
  { path: '/agent-help/authentication.json', file: 'agent-help/authentication.json' },
  { path: '/agent-help/authentication.md', file: 'agent-help/authentication.md' },
  { path: '/agent-help', file: 'agent-help/index.html' },
  { path: '/join', file: 'join/index.html' },
  // The token colours of highlighted code in record pages, built from the themes at build time.
  { path: '/code-theme.css', file: 'code-theme.css' },
  // Pagefind compiles WebAssembly: this page alone allows it (see core/content-security-policy.ts).
  { path: '/search', file: 'search/index.html', contentSecurityPolicy: SEARCH_CONTENT_SECURITY_POLICY },
  { path: '/account/signin', file: 'account/signin/index.html' },
  { path: '/docs/chat', file: 'docs/chat/index.html' },
  // Declared by every page, so browsers do not probe /favicon.ico (a 404 on every visit).
  { path: '/favicon.svg', file: 'favicon.svg' },
];
