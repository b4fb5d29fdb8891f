/** zod failures rendered as `invalid_arguments` errors that name the field. */
import type { z } from 'zod';
import type { Reason } from '../../core/errors-data.ts';
import { apiError, type ApiError } from '../../core/errors.ts';

/** zod's issue codes as catalog reasons. */
const REASONS: Record<string, Reason> = {
  too_big: 'out_of_range',
  too_small: 'out_of_range',
  invalid_type: 'invalid_type',
  unrecognized_keys: 'unknown_field',
  invalid_value: 'invalid_value',
  invalid_format: 'invalid_format',
  custom: 'invalid_value',
};

/** The value at `path` in `input`, to tell a missing field from a mistyped one. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** Where the input came from: an HTTP body or query, or a tool call's arguments. */
export type InputSource = 'body' | 'query' | 'arguments';

const SUBJECT: Record<InputSource, string> = {
  body: 'the request body',
  query: 'the query',
  arguments: 'the tool arguments',
};

export function validationError(error: z.ZodError, where: InputSource, input: unknown): ApiError {
  const issue = error.issues[0]!;
  const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
  let field = issue.path.map(String).join('.');
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    field = field ? `${field}.${key}` : key;
    message = `unknown field; ${SUBJECT[where]} may hold only the documented fields`;
  } else if (missing) {
    message = 'is required';
  }
  const subject = field || SUBJECT[where];
  const reason = missing ? 'missing_field' : (REASONS[issue.code] ?? 'invalid_value');
  return apiError(reason, { subject, detail: message }, { field: field || undefined });
}

/** Parses `input` or throws the 400 that names what is wrong. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: InputSource): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, where, input);
  return result.data;
}
