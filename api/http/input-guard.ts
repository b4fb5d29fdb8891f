/**
 * The input guard: the one rule for bytes no handler can use. The NUL
 * character (U+0000) is stored by PostgreSQL in neither text nor jsonb, so a
 * value holding it that reached a query failed there as a 500. It is refused
 * where input enters, with 400 `nul_character` naming where it was:
 * - the path, the query and the cookies, by the first middleware of every
 *   route (`guardRequestInput`), before any handler, the OAuth server's
 *   included, sees them;
 * - JSON and form bodies, by the one body reader (api/http/body.ts), which every
 *   route that takes a body reads through, the OAuth server's included
 *   (api/oauth/routes.ts hands it the body read there).
 */
import type { MiddlewareHandler } from 'hono';
import { apiError, type ApiError } from '../../core/errors.ts';
import type { AppEnv } from '../app-deps.ts';
import { hasNul } from '../../core/unstorable.ts';

export function nulRefusal(subject: string, field?: string): ApiError {
  return apiError('nul_character', { subject }, { field });
}

/**
 * Whether percent-escaped text decodes to a NUL: only `%00` does, however it is decoded. A decoder of the
 * whole text gives up on a malformed escape anywhere in it, where Hono's decodes each run of escapes on its
 * own (`abc%00x%E0` reaches a route as `abc\0x%E0`), so the escape itself is what is looked for.
 */
const escapesNul = (escaped: string) => /%00/i.test(escaped);

/** Refuses a query or form whose names or values hold NUL, naming the field as validation errors do. */
export function guardFields(fields: URLSearchParams, where: 'the query' | 'the form'): void {
  for (const [name, value] of fields) {
    if (hasNul(name)) throw nulRefusal(`a field name in ${where}`);
    if (hasNul(value)) throw nulRefusal(name, name);
  }
}

/** The path, query and cookies of every request, before any route. */
export function guardRequestInput(): MiddlewareHandler<AppEnv> {
  return async function refuseHostileInput(c, next) {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const queryAt = url.indexOf('?', start);
    const path = url.slice(start, queryAt === -1 ? undefined : queryAt);
    // A raw NUL never gets here: the HTTP parser refuses it.
    if (escapesNul(path)) throw nulRefusal('the path');
    if (queryAt !== -1 && url.includes('%', queryAt))
      guardFields(new URLSearchParams(url.slice(queryAt + 1)), 'the query');
    const cookies = c.req.header('cookie');
    if (cookies?.includes('%')) {
      for (const pair of cookies.split(';')) {
        const at = pair.indexOf('=');
        const name = pair.slice(0, at === -1 ? undefined : at).trim();
        if (escapesNul(pair.slice(at + 1))) throw nulRefusal(`the cookie ${name}`);
      }
    }
    await next();
  };
}
