import type { APIRoute } from 'astro';
import { AUTHENTICATION_HELP } from '../../lib/help/authentication.ts';
import { jsonResponse } from '../../lib/responses.ts';

export const prerender = true;

export const GET: APIRoute = () => jsonResponse(AUTHENTICATION_HELP);
