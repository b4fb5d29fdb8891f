/** The one place errors become responses: the Error shape, logged only when 5xx. */
import type { Context } from 'hono';
import { ApiError, apiError, errorBody, statusOf } from '../../core/errors.ts';
import type { Logger } from '../../infra/logger.ts';
import { readOnlyRefusal } from '../../core/serving-fence.ts';
import { isConnectionError, isReadOnlyError } from '../../db/pool.ts';
import type { NotFoundPage } from './not-found-page.ts';

/**
 * RFC 9110 (15.5.2): a 401 MUST carry WWW-Authenticate. The tool protocol's
 * sets its own (resource metadata, scope); every other 401 gets the bearer
 * challenge of RFC 6750, with `error="invalid_token"` when a credential was
 * sent and refused, and none when none was sent.
 */
function challengeOf(info: ApiError['info']): string {
  if (info.reason === 'operator_token_required') return 'Bearer realm="operator"';
  return info.code === 'missing_credential'
    ? 'Bearer realm="agent-knowledge"'
    : 'Bearer realm="agent-knowledge", error="invalid_token"';
}

export function renderError(c: Context, error: ApiError): Response {
  const { info } = error;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(info.headers ?? {}) };
  if (info.retryAfter !== undefined) headers['Retry-After'] = String(info.retryAfter);
  const status = statusOf(info);
  if (status === 401 && !Object.keys(headers).some((name) => name.toLowerCase() === 'www-authenticate'))
    headers['WWW-Authenticate'] = challengeOf(info);
  const body = errorBody(info, c.get('requestId') ?? 'req_unknown');
  // Set by negotiation before the record was looked up: it names a twin, and an error body is none.
  c.header('Content-Location', undefined);
  return c.json(body, status as 400, headers);
}

/**
 * Any thrown value as an ApiError: refusals pass through, an unreachable
 * backing service is 503, a read-only database is 503 `serving_fenced`, anything else is a logged 500 that says nothing
 * about its cause. The HTTP handler and the tool protocol both use it.
 */
export function toApiError(
  error: unknown,
  logger: Logger,
  requestId: string | undefined,
  retryAfterSeconds: number,
): ApiError {
  if (error instanceof ApiError) {
    // A fenced write is the service doing what it was told, not a fault.
    if (error.info.reason === 'serving_fenced') logger.info({ requestId }, 'write refused: serving fenced');
    else if (error.status >= 500) logger.error({ requestId, code: error.info.code }, error.message);
    return error;
  }
  if (isReadOnlyError(error)) {
    logger.warn({ requestId }, 'write refused by a read-only database');
    return readOnlyRefusal(retryAfterSeconds);
  }
  if (isConnectionError(error)) {
    logger.warn({ requestId, err: error }, 'dependency unavailable');
    return apiError('dependency_unavailable', undefined, { retryAfter: retryAfterSeconds });
  }
  logger.error({ requestId, err: error }, 'unhandled error');
  return apiError('internal_error');
}

/**
 * Status recorded for a request whose client hung up before the answer
 * (nginx's 499): nothing is sent, and it is neither a refusal nor an outage.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** True once the client has closed the connection of this request. */
export function clientAborted(c: Context): boolean {
  const incoming = (c.env as { incoming?: { destroyed?: boolean; socket?: { destroyed?: boolean } } } | undefined)
    ?.incoming;
  return c.req.raw.signal?.aborted === true || incoming?.socket?.destroyed === true;
}

/** `notFoundPage`: the HTML 404 for browsers (api/http/not-found-page.ts); without it every 404 is the Error shape. */
export function createErrorHandler(logger: Logger, retryAfterSeconds: number, notFoundPage?: NotFoundPage) {
  return async function handleError(error: Error, c: Context): Promise<Response> {
    // A client that hung up mid-request makes reads of its body fail like a
    // lost connection; it is the client's doing, not a dependency outage.
    if (clientAborted(c)) {
      logger.info({ requestId: c.get('requestId') }, 'client aborted');
      return c.body(null, CLIENT_CLOSED_REQUEST as 200);
    }
    const apiErr = toApiError(error, logger, c.get('requestId'), retryAfterSeconds);
    if (apiErr.status === 404 && notFoundPage) {
      const page = await notFoundPage(c);
      if (page) return page;
    }
    return renderError(c, apiErr);
  };
}

export function handleNotFound(c: Context): Response {
  return renderError(c, apiError('unknown_path', { path: new URL(c.req.url).pathname }));
}

/** Unknown paths: the HTML 404 for browsers, the Error shape for everyone else. */
export function createNotFoundHandler(notFoundPage: NotFoundPage) {
  return async function handleUnknownPath(c: Context): Promise<Response> {
    return (await notFoundPage(c)) ?? handleNotFound(c);
  };
}
