/**
 * Requests refused before the app sees them, answered in the Error shape
 * like every other error (the defaults are a bare 400 with no body):
 * - Node's HTTP parser refuses a malformed request line or header,
 *   conflicting Content-Length, oversized headers (`clientError`);
 * - @hono/node-server cannot build a URL from the target or the Host
 *   header (`*`, a bad Host, a backslash in the path).
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { RequestError } from '@hono/node-server';
import { errorBody, type ErrorInfo } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';

const MALFORMED: ErrorInfo = {
  code: 'invalid_arguments',
  reason: 'malformed_request',
  message: 'The request is not well-formed HTTP/1.1 (request line, target, Host, header names and values, or message framing). Fix the request and send it again.',
};

/** llhttp codes worth a reason of their own. */
const PARSER_ERRORS: Record<string, ErrorInfo> = {
  HPE_HEADER_OVERFLOW: {
    code: 'invalid_arguments',
    reason: 'headers_too_large',
    message: 'The request line and headers are larger than this server accepts (16 KiB). Send fewer or shorter headers.',
  },
};

const newRequestId = () => `req_${randomBytes(10).toString('hex')}`;

function serialise(info: ErrorInfo, requestId: string): string {
  return JSON.stringify(errorBody(info, requestId));
}

/** For `server.on('clientError')`: answers on the raw socket, then closes it. */
export function createClientErrorHandler(logger: Logger) {
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
      // Node's own answer: the client stopped sending; there is nothing to describe.
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      return;
    }
    const requestId = newRequestId();
    const body = serialise(PARSER_ERRORS[error.code ?? ''] ?? MALFORMED, requestId);
    logger.info({ requestId, code: error.code }, 'malformed request refused');
    // An answer to HEAD has no body, even when the rest of the request was malformed.
    const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end([
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      head ? '' : body,
    ].join('\r\n'));
  };
}

/** For @hono/node-server's `errorHandler`: a request it could not turn into a fetch Request, or an error that escaped the app. */
export function createRequestErrorHandler(logger: Logger) {
  return function handleRequestError(error: unknown): Response {
    const requestId = newRequestId();
    let info = MALFORMED;
    if (!(error instanceof RequestError)) {
      logger.error({ requestId, err: error }, 'unhandled error outside the app');
      info = { code: 'internal_error', message: 'Something went wrong on our side. The request id identifies it in our logs.' };
    }
    return new Response(serialise(info, requestId), {
      status: info.code === 'internal_error' ? 500 : 400,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-Id': requestId },
    });
  };
}
