import type { APIRoute } from 'astro';
import { jsonResponse } from '../../lib/markdown.ts';
import { badRequestResponse, dbFrom, notFoundResponse, recordParams } from '../../lib/request.ts';
import { buildDiscussionView } from '../../lib/views/discussion.ts';

export const GET: APIRoute = async ({ params, url, locals }) => {
  const query = recordParams(url);
  if (!query) return badRequestResponse();
  const view = await buildDiscussionView(dbFrom(locals), params.id ?? '', query);
  return view ? jsonResponse(view) : notFoundResponse();
};
