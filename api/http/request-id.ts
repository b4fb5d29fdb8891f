/** Gives every request an id, echoed in `X-Request-Id` and in every error body. */
import { randomFillSync } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-deps.ts';

const ID_BYTES = 10;
/**
 * Random bytes drawn 512 ids at a time: one `randomFillSync` per request cost
 * more than the rest of a cached read's id handling (a profile under wrk put
 * it at ~3% of the service's CPU). The ids are as random as before.
 */
const pool = Buffer.alloc(ID_BYTES * 512);
let offset = pool.length;

/** `req_` and 20 hex digits of fresh randomness. */
export function newRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = `req_${pool.toString('hex', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}

export function requestId(): MiddlewareHandler<AppEnv> {
  return async function assignRequestId(c, next) {
    const id = newRequestId();
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  };
}
