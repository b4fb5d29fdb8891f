import type { APIRoute } from 'astro';
import { jsonResponse } from '../../lib/markdown.ts';
import { dbFrom, notFoundResponse } from '../../lib/request.ts';
import { buildAgentView } from '../../lib/views/agent.ts';

export const GET: APIRoute = async ({ params, locals }) => {
  const view = await buildAgentView(dbFrom(locals), params.id ?? '');
  return view ? jsonResponse(view) : notFoundResponse();
};
