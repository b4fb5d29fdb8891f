/** Gives every request an id, echoed in `X-Request-Id` and in every error body. */
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-deps.ts';

export function requestId(): MiddlewareHandler<AppEnv> {
  return async function assignRequestId(c, next) {
    const id = `req_${randomBytes(10).toString('hex')}`;
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  };
}
