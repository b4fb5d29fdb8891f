/** What a projection route needs from its request: the database and valid parameters. */
import { RecordParamsSchema, type RecordParams } from '../../core/schemas/read-params.ts';
import type { Queryable } from '../../db/pool.ts';

/** The service passes its pool in `locals`; a page never opens its own connection. */
export function dbFrom(locals: App.Locals): Queryable {
  if (!locals.db) throw new Error('projection rendered without locals.db; render through the service');
  return locals.db;
}

/** The record parameters, or null when they are invalid (the service answers 400 before this). */
export function recordParams(url: URL): RecordParams | null {
  const parsed = RecordParamsSchema.safeParse(Object.fromEntries(url.searchParams));
  return parsed.success ? parsed.data : null;
}

export const notFoundResponse = () => new Response(null, { status: 404 });
export const badRequestResponse = () => new Response(null, { status: 400 });
