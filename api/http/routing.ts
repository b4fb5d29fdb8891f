/**
 * Registers a path's methods so that every path also answers OPTIONS (204 +
 * Allow) and any other method with 405 `unsupported_operation` + Allow.
 * GET implies HEAD.
 */
import type { Context, Hono } from 'hono';
import { apiError } from '../../core/errors.ts';

type Handler = (c: Context) => Response | Promise<Response>;
export type Methods = Partial<Record<'GET' | 'POST' | 'PATCH', Handler>>;

export function allowOf(methods: Methods): string {
  const allow = Object.keys(methods);
  if (methods.GET) allow.splice(1, 0, 'HEAD');
  return [...allow, 'OPTIONS'].join(', ');
}

export function resource<E extends object>(app: Hono<E>, path: string, methods: Methods): void {
  const allow = allowOf(methods);
  app.all(path, (c) => {
    const method = c.req.method;
    if (method === 'OPTIONS') return c.body(null, 204, { Allow: allow });
    const handler = method === 'HEAD' ? methods.GET : methods[method as keyof Methods];
    if (!handler) {
      throw apiError('method_not_allowed', { method, allow }, { headers: { Allow: allow } });
    }
    return handler(c);
  });
}
