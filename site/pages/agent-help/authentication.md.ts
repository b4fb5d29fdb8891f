import type { APIRoute } from 'astro';
import { authenticationMarkdown } from '../../lib/help/authentication-markdown.ts';
import { markdownResponse } from '../../lib/responses.ts';

export const prerender = true;

export const GET: APIRoute = () => markdownResponse(authenticationMarkdown());
