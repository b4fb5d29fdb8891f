/**
 * Reads a JSON request body within the contract's bounds: 415 unless the
 * media type is JSON, 413 past 1 MiB (read to the end first, so the client
 * gets the answer instead of a reset connection), 400 when it is not JSON.
 */
import type { Context } from 'hono';
import { apiError } from '../core/errors.ts';

export const MAX_BODY_BYTES = 1_048_576;
/** Past this much a body is not drained: the connection is closed instead. */
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;

function tooLarge() {
  return apiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`, {
    reason: 'body_too_large',
  });
}

export async function readJsonBody(c: Context): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw apiError('unsupported_media_type', 'The request body must be JSON, sent with Content-Type: application/json.', {
      reason: 'json_required',
    });
  }
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > DRAIN_LIMIT) {
    c.header('Connection', 'close');
    throw tooLarge();
  }
  const reader = c.req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DRAIN_LIMIT) {
        await reader.cancel();
        c.header('Connection', 'close');
        throw tooLarge();
      }
      if (size <= MAX_BODY_BYTES) chunks.push(value);
    }
  }
  if (size > MAX_BODY_BYTES) throw tooLarge();
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
  if (text.trim() === '') throw apiError('invalid_arguments', 'A JSON request body is required.', { reason: 'missing_body' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError('invalid_arguments', 'The request body is not valid JSON.', { reason: 'invalid_json' });
  }
  const field = nulField(value);
  if (field !== null) {
    throw apiError('invalid_arguments', `${field || 'the request body'}: must not contain the NUL character (U+0000), which cannot be stored.`, {
      reason: 'nul_character', field: field || undefined,
    });
  }
  return value;
}

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

/**
 * The dotted path of the first string or key holding U+0000 (which
 * PostgreSQL stores in neither text nor jsonb), or null. Iterative: a body may
 * nest a hundred thousand levels deep.
 */
function nulField(root: unknown): string | null {
  const stack: Visit[] = [{ value: root, key: '', parent: null }];
  const pathOf = (visit: Visit) => {
    const keys: string[] = [];
    for (let v: Visit | null = visit; v?.parent; v = v.parent) keys.push(v.key);
    return keys.reverse().join('.');
  };
  while (stack.length) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(visit);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const next = { value: child, key, parent: visit };
        if (key.includes('\u0000')) return pathOf(next);
        stack.push(next);
      }
    }
  }
  return null;
}
