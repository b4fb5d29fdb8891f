import type { APIRoute } from 'astro';
import { codeThemeCss } from '../lib/markdown/highlight.ts';

export const prerender = true;

/** The token colours of highlighted code, built from the themes at build time (lib/markdown/highlight.ts). */
export const GET: APIRoute = async () =>
  new Response(await codeThemeCss(), { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
