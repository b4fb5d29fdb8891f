/**
 * The input guard: the one rule for text no handler can use (core/unstorable.ts):
 * the NUL character (U+0000), which PostgreSQL stores in neither text nor
 * jsonb, so a value holding it that reached a query failed there as a 500;
 * other control characters but tab, line feed and carriage return; text that
 * is not well-formed; the bidirectional controls. It is refused where input
 * enters, with 400 `nul_character`, `control_character`, `malformed_text` or
 * `bidi_control` naming where it was:
 * - the path (NUL) and the cookies (NUL), and the query (all but malformed
 *   text, which URLSearchParams reads as U+FFFD), by the
 *   first middleware of every route (`guardRequestInput`), before any
 *   handler, the OAuth server's included, sees them;
 * - JSON and form bodies, by the one body reader (api/http/body.ts), which every
 *   route that takes a body reads through, the OAuth server's included
 *   (api/oauth/routes.ts hands it the body read there).
 */
import type { MiddlewareHandler } from 'hono';
import { apiError, type ApiError } from '../../core/errors.ts';
import type { AppEnv } from '../app-deps.ts';
import { RESERVED_KEY, textProblem, type TextProblem, type unstorable } from '../../core/unstorable.ts';

const REASON_OF = {
  nul: 'nul_character',
  control: 'control_character',
  malformed: 'malformed_text',
  bidi: 'bidi_control',
} as const satisfies Record<TextProblem, string>;

/** The reasons of every refusal of the text rule (core/unstorable.ts), the reserved key's included. */
export const UNSTORABLE_TEXT: ReadonlySet<string> = new Set([...Object.values(REASON_OF), 'reserved_key']);

/** The 400 for a text problem of `subject` (core/unstorable.ts). */
export function textRefusal(problem: TextProblem, subject: string, field?: string): ApiError {
  return apiError(REASON_OF[problem], { subject }, { field });
}

/** The 400 for what `unstorable` found in a parsed body, or nothing when it found nothing. */
export function refuseUnstorable(found: ReturnType<typeof unstorable>, subject = 'the request body'): void {
  if (!found) return;
  if (found.problem !== 'reserved_key')
    throw textRefusal(found.problem, found.field || subject, found.field || undefined);
  const parent = found.field.split('.').slice(0, -1).join('.');
  throw apiError('reserved_key', { subject: parent || subject, key: RESERVED_KEY }, { field: found.field });
}

/**
 * Whether percent-escaped text decodes to a NUL: only `%00` does, however it is decoded. A decoder of the
 * whole text gives up on a malformed escape anywhere in it, where Hono's decodes each run of escapes on its
 * own (`abc%00x%E0` reaches a route as `abc\0x%E0`), so the escape itself is what is looked for.
 */
const escapesNul = (escaped: string) => /%00/i.test(escaped);

/** Refuses a query or form whose names or values have a text problem, naming the field as validation errors do. */
export function guardFields(fields: URLSearchParams, where: 'the query' | 'the form'): void {
  for (const [name, value] of fields) {
    const inName = textProblem(name);
    if (inName) throw textRefusal(inName, `a field name in ${where}`);
    const inValue = textProblem(value);
    if (inValue) throw textRefusal(inValue, name, name);
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
    if (escapesNul(path)) throw textRefusal('nul', 'the path');
    if (queryAt !== -1 && url.includes('%', queryAt))
      guardFields(new URLSearchParams(url.slice(queryAt + 1)), 'the query');
    const cookies = c.req.header('cookie');
    if (cookies?.includes('%')) {
      for (const pair of cookies.split(';')) {
        const at = pair.indexOf('=');
        const name = pair.slice(0, at === -1 ? undefined : at).trim();
        if (escapesNul(pair.slice(at + 1))) throw textRefusal('nul', `the cookie ${name}`);
      }
    }
    await next();
  };
}
