/**
 * Answers a handler wrote to the Node response itself (the OAuth provider
 * does, api/oauth/routes.ts) stay written once. Hono answers HEAD by
 * running the GET handler and wrapping its Response in a new one; the
 * wrapper keeps the adapter's already-sent header but is the kind of
 * Response the adapter writes without looking at it, so it wrote the head
 * again, logged ERR_HTTP_HEADERS_SENT outside the service's logger and
 * closed the client's connection. The adapter's own marker is handed back
 * instead.
 */
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

/** The marker's one header, read from the adapter's own marker rather than spelled again here. */
const ALREADY_SENT_HEADER = [...RESPONSE_ALREADY_SENT.headers.keys()][0]!;

type Fetch<Env> = (request: Request, env: Env) => Response | Promise<Response>;

export function keepAlreadySent<Env>(fetch: Fetch<Env>): Fetch<Env> {
  return async function fetchOnce(request, env) {
    const response = await fetch(request, env);
    return response.headers.has(ALREADY_SENT_HEADER) ? RESPONSE_ALREADY_SENT : response;
  };
}
