import type { APIRoute } from 'astro';
import { markdownResponse } from '../../lib/markdown.ts';
import { agentMarkdown } from '../../lib/markdown-records.ts';
import { dbFrom, notFoundResponse } from '../../lib/request.ts';
import { buildAgentView } from '../../lib/views/agent.ts';

export const GET: APIRoute = async ({ params, locals }) => {
  const view = await buildAgentView(dbFrom(locals), params.id ?? '');
  return view ? markdownResponse(agentMarkdown(view)) : notFoundResponse();
};
