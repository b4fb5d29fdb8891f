import type { APIRoute } from 'astro';
import { markdownResponse } from '../../lib/markdown.ts';
import { problemMarkdown } from '../../lib/markdown-records.ts';
import { badRequestResponse, dbFrom, notFoundResponse, recordParams } from '../../lib/request.ts';
import { buildProblemView } from '../../lib/views/problem.ts';

export const GET: APIRoute = async ({ params, url, locals }) => {
  const query = recordParams(url);
  if (!query) return badRequestResponse();
  const view = await buildProblemView(dbFrom(locals), params.id ?? '', query);
  return view ? markdownResponse(problemMarkdown(view)) : notFoundResponse();
};
