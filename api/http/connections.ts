/**
 * Connection-level bounds of the API's Node server, answered in the Error
 * shape wherever an answer can still be sent:
 * - slow clients: header, whole-request and keep-alive timeouts (seconds),
 *   checked every `connectionsCheckingInterval` (Node's default of 30 s let a
 *   1 byte/s client hold a connection for minutes);
 * - a per-process cap on open connections per client address, and on all of
 *   them as a last resort: one more gets 503 and is closed;
 * - shutdown: stop accepting, answer requests still arriving on kept-alive
 *   connections with 503 `Connection: close`, close idle sockets at once.
 */
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../../core/config.ts';
import { errorBody, errorInfo, ERROR_STATUS, type ErrorInfo } from '../../core/errors.ts';
import type { Logger } from '../../infra/logger.ts';
import { addressOf } from '../limits/rate-limit.ts';
import { newRequestId } from './request-id.ts';

/** Node server options for the configured timeouts. */
export function serverTimeouts(config: Config): ServerOptions {
  return {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    // How often Node checks the two request timeouts: a fraction of the shorter one.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4))),
  };
}

/** The 408 a slow request gets, on the raw socket (see client-error.ts). */
export function slowRequestError(config: Config): ErrorInfo {
  return errorInfo('request_too_slow', {
    headersSeconds: config.HTTP_HEADERS_TIMEOUT_MS / 1000,
    requestSeconds: config.HTTP_REQUEST_TIMEOUT_MS / 1000,
  });
}

/** A complete HTTP/1.1 answer in the Error shape that closes the connection. */
export function rawErrorResponse(info: ErrorInfo, options: { head?: boolean } = {}): string {
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(info, requestId));
  const status = ERROR_STATUS[info.code];
  return [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    `X-Request-Id: ${requestId}`,
    ...(info.retryAfter !== undefined ? [`Retry-After: ${info.retryAfter}`] : []),
    'Connection: close',
    '',
    options.head ? '' : body,
  ].join('\r\n');
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 503: 'Service Unavailable' };

export interface ConnectionGuard {
  /** Wraps the app's listener: during a drain, requests are refused with 503 and `Connection: close`. */
  listener(app: RequestListener): RequestListener;
  /** Stops accepting, refuses what still arrives, closes idle keep-alive sockets now; resolves when all are closed. */
  drain(graceMs: number): Promise<void>;
  readonly open: number;
}

export function guardConnections(server: Server, config: Config, logger: Logger): ConnectionGuard {
  const sockets = new Set<Socket>();
  /** Answers not sent yet when their listener returned: told to close their connection when a drain starts. */
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const retryAfter = config.RETRY_AFTER_SECONDS;

  /** Open connections per client address key; only counted when the peer is the client (no trusted proxy). */
  const perClient = config.TRUSTED_PROXY_HOPS === 0 ? new Map<string, number>() : null;
  const perClientMax = config.HTTP_MAX_CONNECTIONS_PER_CLIENT;

  server.on('connection', function capConnections(socket: Socket) {
    const client = perClient && addressOf(socket.remoteAddress, undefined, 0);
    const held = client ? (perClient!.get(client) ?? 0) : 0;
    let info: ErrorInfo | null = null;
    if (draining) info = errorInfo('shutting_down', undefined, { retryAfter });
    else if (held >= perClientMax)
      info = errorInfo('too_many_client_connections', { max: perClientMax }, { retryAfter });
    else if (sockets.size >= config.HTTP_MAX_CONNECTIONS)
      info = errorInfo('too_many_connections', { max: config.HTTP_MAX_CONNECTIONS }, { retryAfter });
    if (info) {
      logger.warn({ open: sockets.size, client, held, draining }, 'connection refused');
      socket.end(rawErrorResponse(info));
      socket.on('error', () => {});
      return;
    }
    sockets.add(socket);
    if (client) perClient!.set(client, held + 1);
    socket.once('close', () => {
      sockets.delete(socket);
      if (!client) return;
      const left = perClient!.get(client)! - 1;
      if (left > 0) perClient!.set(client, left);
      else perClient!.delete(client);
    });
  });

  return {
    get open() {
      return sockets.size;
    },
    listener(app) {
      return function guardedListener(req: IncomingMessage, res: ServerResponse) {
        if (!draining) {
          app(req, res);
          // An answer sent already (the pre-router reads answer synchronously) needs no Connection: close at a drain.
          if (!res.writableEnded) {
            inFlight.add(res);
            res.once('close', () => inFlight.delete(res));
          }
          return;
        }
        const body = JSON.stringify(errorBody(errorInfo('shutting_down', undefined, { retryAfter }), newRequestId()));
        res.writeHead(503, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
          'Retry-After': String(retryAfter),
          Connection: 'close',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
    },
    async drain(graceMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // In-flight answers finish, then Node closes their sockets instead of keeping them alive.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
