/** The one place errors become responses: the Error shape, logged only when 5xx. */
import type { Context } from 'hono';
import { ApiError, apiError, errorBody, ERROR_STATUS } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { isConnectionError } from '../db/pool.ts';

export function renderError(c: Context, error: ApiError): Response {
  const { info } = error;
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(info.headers ?? {}) };
  if (info.retryAfter !== undefined) headers['Retry-After'] = String(info.retryAfter);
  const status = ERROR_STATUS[info.code];
  const body = errorBody(info, c.get('requestId') ?? 'req_unknown');
  return c.json(body, status as 400, headers);
}

/**
 * Any thrown value as an ApiError: refusals pass through, an unreachable
 * backing service is 503, anything else is a logged 500 that says nothing
 * about its cause. The HTTP handler and the tool protocol both use it.
 */
export function toApiError(error: unknown, logger: Logger, requestId: string | undefined, retryAfterSeconds: number): ApiError {
  if (error instanceof ApiError) {
    if (error.status >= 500) logger.error({ requestId, code: error.info.code }, error.message);
    return error;
  }
  if (isConnectionError(error)) {
    logger.warn({ requestId, err: error }, 'dependency unavailable');
    return apiError('temporarily_unavailable', 'A backing service is not reachable right now. Retry shortly.', {
      reason: 'dependency_unavailable',
      retryAfter: retryAfterSeconds,
    });
  }
  logger.error({ requestId, err: error }, 'unhandled error');
  return apiError('internal_error', 'Something went wrong on our side. The request id identifies it in our logs.');
}

export function createErrorHandler(logger: Logger, retryAfterSeconds: number) {
  return function handleError(error: Error, c: Context): Response {
    return renderError(c, toApiError(error, logger, c.get('requestId'), retryAfterSeconds));
  };
}

export function handleNotFound(c: Context): Response {
  return renderError(c, apiError('not_found', `Nothing is served at ${new URL(c.req.url).pathname}.`, { reason: 'unknown_path' }));
}
