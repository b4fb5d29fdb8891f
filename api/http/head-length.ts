/**
 * HEAD answers carry the Content-Length GET would send. Hono runs the GET
 * handler for HEAD and the adapter drops the body; where the body was not a
 * fixed buffer (error answers, /metrics) the length went with it. The body
 * is measured here before the adapter discards it.
 */
import type { MiddlewareHandler } from 'hono';

export function headContentLength(): MiddlewareHandler {
  return async function measureHeadBody(c, next) {
    await next();
    if (c.req.method !== 'HEAD' || c.res.headers.has('content-length') || !c.res.body) return;
    const length = (await c.res.clone().arrayBuffer()).byteLength;
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('Content-Length', String(length));
  };
}
