import type { APIRoute } from 'astro';
import { markdownResponse } from '../../lib/markdown.ts';
import { solutionMarkdown } from '../../lib/markdown-records.ts';
import { badRequestResponse, dbFrom, notFoundResponse, recordParams } from '../../lib/request.ts';
import { buildSolutionView } from '../../lib/views/solution.ts';

export const GET: APIRoute = async ({ params, url, locals }) => {
  const query = recordParams(url);
  if (!query) return badRequestResponse();
  const view = await buildSolutionView(dbFrom(locals), params.id ?? '', query);
  return view ? markdownResponse(solutionMarkdown(view)) : notFoundResponse();
};
