/**
 * "Authorise and submit a write": the one path every write takes, whether it
 * arrived as an HTTP request or as a tool call on /mcp/participate. Same
 * checks in the same order (README, "Write order of checks"), same pipeline,
 * so an operation id (identity + Idempotency-Key) means one thing on both:
 * a key first used over HTTP replays over the tool protocol, and back.
 *
 * Only the edges differ, and the caller supplies them: where the credential
 * and key were read from (named in errors), and how the target and body are
 * read once the cheaper checks have passed.
 */
import type { Context } from 'hono';
import { apiError } from '../core/errors.ts';
import { IdempotencyKeySchema } from '../core/schemas/fields.ts';
import type { AppDeps } from './app-deps.ts';
import { authenticate, requireScope, type Channel } from './auth.ts';
import { parseOrThrow } from './validation.ts';
import type { WriteOperation } from './write-operations.ts';
import type { WriteAnswer } from './write-pipeline.ts';

export interface WriteCall {
  channel: Channel;
  /** The `Authorization` header of the HTTP request that carried the write. */
  authorization: string | undefined;
  /** As sent: a header value or a tool argument, not yet checked. */
  idempotencyKey: unknown;
  /** Reads the target id and the body; only called once credential, rate limit, scope and key have passed. */
  readInput(): Promise<{ targetId?: string; body: unknown }>;
  requestId: string;
}

export type SubmitAuthorisedWrite = (c: Context, spec: WriteOperation, call: WriteCall) => Promise<WriteAnswer>;

/** How each channel names the key, so the error points at what the client sent. */
const KEY_FIELD: Record<Channel, { field: string; noun: string }> = {
  http: { field: 'Idempotency-Key', noun: 'The Idempotency-Key header' },
  tool: { field: 'idempotency_key', noun: 'The idempotency_key argument' },
};

function checkIdempotencyKey(key: unknown, channel: Channel): string {
  const { field, noun } = KEY_FIELD[channel];
  if (key === undefined || key === null) {
    throw apiError('invalid_arguments', `${noun} is required on every write: "<client>:<operation id>", e.g. "agent-7:2f9c1e0a-create".`, {
      reason: 'missing_idempotency_key', field,
    });
  }
  const parsed = IdempotencyKeySchema.safeParse(key);
  if (!parsed.success) {
    throw apiError('invalid_arguments', `${noun} must be 1-64 then 8-128 characters of letters, digits, _ and -, joined by a colon.`, {
      reason: 'invalid_idempotency_key', field,
    });
  }
  return parsed.data;
}

export function createWriteSubmitter({ config, pool, rateLimit, submitWrite }: AppDeps): SubmitAuthorisedWrite {
  return async function authoriseAndSubmitWrite(c, spec, call) {
    const credential = await authenticate(pool, call.authorization, call.channel);
    await rateLimit(c, 'write', credential.identity_id, {
      limit: config.WRITE_RATE_LIMIT, windowSeconds: config.WRITE_RATE_WINDOW_SECONDS,
    });
    requireScope(credential, spec.scopes);
    const idempotencyKey = checkIdempotencyKey(call.idempotencyKey, call.channel);
    const input = await call.readInput();
    const body = parseOrThrow(spec.schema, input.body, call.channel === 'http' ? 'body' : 'arguments');
    if (spec.bodyScope) requireScope(credential, [spec.bodyScope(body)]);
    return submitWrite({
      operation: spec.operation,
      identityId: credential.identity_id,
      credentialId: credential.id,
      scopes: credential.scopes,
      idempotencyKey,
      targetId: input.targetId,
      body,
      requestId: call.requestId,
    });
  };
}
