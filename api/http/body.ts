/**
 * Reads a JSON request body within the contract's bounds: 415 unless the
 * media type is JSON, 413 past 1 MiB (read to the end first, so the client
 * gets the answer instead of a reset connection), 400 when it is not JSON.
 */
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { unstorable } from '../../core/unstorable.ts';
import { guardFields, refuseUnstorable, textRefusal } from './input-guard.ts';

export const MAX_BODY_BYTES = 1_048_576;
/** Past this much a body is not drained: the connection is closed instead. */
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;

function tooLarge() {
  return apiError('body_too_large', { limit: MAX_BODY_BYTES });
}

const mediaTypeOf = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

export async function readJsonBody(c: Context): Promise<unknown> {
  if (mediaTypeOf(c) !== 'application/json') {
    throw apiError('json_required');
  }
  const text = await readBodyText(c);
  if (text.trim() === '') throw apiError('missing_body');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError('invalid_json');
  }
  refuseUnstorable(unstorable(value));
  return value;
}

/** An HTML form's fields (the browser pages' forms), within the same bounds as JSON. */
export async function readFormBody(c: Context): Promise<URLSearchParams> {
  if (mediaTypeOf(c) !== 'application/x-www-form-urlencoded') {
    throw apiError('form_required');
  }
  const form = new URLSearchParams(await readBodyText(c));
  guardFields(form, 'the form');
  return form;
}

/**
 * The body of a request handed to a handler that parses it itself (the
 * OAuth server), as text, within the same bounds and through the same guard
 * as `readJsonBody` and `readFormBody`; null when it is neither JSON nor a form.
 */
export async function readGuardedBodyText(c: Context): Promise<string | null> {
  const type = mediaTypeOf(c);
  if (type === 'application/json') {
    const text = await readBodyText(c);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: the handler answers that in its own terms.
      return text;
    }
    // The library parses the text itself, so a reserved key is its to read; text no record may hold is refused.
    const found = unstorable(value);
    if (found?.problem !== 'reserved_key') refuseUnstorable(found);
    return text;
  }
  if (type === 'application/x-www-form-urlencoded') {
    const text = await readBodyText(c);
    guardFields(new URLSearchParams(text), 'the form');
    return text;
  }
  return null;
}

/** The body as text: 413 past 1 MiB, read to the end first; 400 when it is not UTF-8. */
async function readBodyText(c: Context): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > DRAIN_LIMIT) {
    c.header('Connection', 'close');
    throw tooLarge();
  }
  // A declared length within the limit is read whole (Node's parser holds the
  // body to it): under @hono/node-server that reads the Node request directly,
  // where the stream below first builds a web Request and a web stream over
  // it, which was about a tenth of the API's CPU per write.
  if (declared <= MAX_BODY_BYTES) return decodeUtf8(new Uint8Array(await c.req.raw.arrayBuffer()));
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
  return decodeUtf8(Buffer.concat(chunks));
}

/** Bytes that are not UTF-8 are refused, not replaced: a replaced byte would be stored as U+FFFD unseen. */
const decodeUtf8 = (bytes: Uint8Array) => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw textRefusal('malformed', 'the request body');
  }
};
