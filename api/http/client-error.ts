/**
 * Requests refused before the app sees them, answered in the Error shape
 * like every other error (the defaults are a bare 400 with no body):
 * - Node's HTTP parser refuses a malformed request line or header,
 *   conflicting Content-Length, oversized headers (`clientError`);
 * - @hono/node-server cannot build a URL from the target or the Host
 *   header (`*`, a bad Host, a backslash in the path).
 */
import type { Socket } from 'node:net';
import { RequestError } from '@hono/node-server';
import { errorBody, errorInfo, type ErrorInfo } from '../../core/errors.ts';
import type { Logger } from '../../infra/logger.ts';
import { rawErrorResponse } from './connections.ts';
import { newRequestId } from './request-id.ts';

const MALFORMED: ErrorInfo = errorInfo('malformed_request');

/** llhttp codes worth a reason of their own. */
const PARSER_ERRORS: Record<string, ErrorInfo> = {
  HPE_HEADER_OVERFLOW: errorInfo('headers_too_large', { limitKiB: 16 }),
};

function serialise(info: ErrorInfo, requestId: string): string {
  return JSON.stringify(errorBody(info, requestId));
}

/** For `server.on('clientError')`: answers on the raw socket, then closes it. */
export function createClientErrorHandler(logger: Logger, slowRequest: ErrorInfo) {
  return function handleClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
    // As Node's own handler: no answer once an earlier response on this
    // connection has started (it would corrupt that response), or when the
    // peer is gone.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Headers or body too slow (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS).
      logger.info({ code: error.code }, 'slow request timed out');
      socket.end(rawErrorResponse(slowRequest));
      return;
    }
    logger.info({ code: error.code }, 'malformed request refused');
    // An answer to HEAD has no body, even when the rest of the request was malformed.
    const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(rawErrorResponse(PARSER_ERRORS[error.code ?? ''] ?? MALFORMED, { head }));
  };
}

/** For @hono/node-server's `errorHandler`: a request it could not turn into a fetch Request, or an error that escaped the app. */
export function createRequestErrorHandler(logger: Logger) {
  return function handleRequestError(error: unknown): Response {
    const requestId = newRequestId();
    let info = MALFORMED;
    if (!(error instanceof RequestError)) {
      logger.error({ requestId, err: error }, 'unhandled error outside the app');
      info = errorInfo('internal_error');
    }
    return new Response(serialise(info, requestId), {
      status: info.code === 'internal_error' ? 500 : 400,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-Id': requestId },
    });
  };
}
