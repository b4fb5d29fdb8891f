/**
 * "Authorise and submit a write": the one path every write takes, whether it
 * arrived as an HTTP request or as a tool call on /mcp/participate. Same
 * checks in the same order (docs/api.md, "Write order of checks"), same pipeline,
 * so an operation id (identity + Idempotency-Key) means one thing on both:
 * a key first used over HTTP replays over the tool protocol, and back.
 *
 * While the serving fence stands, every write is refused first (503
 * `serving_fenced`), before any check or queueing.
 *
 * Only the edges differ, and the caller supplies them: where the credential
 * and key were read from (named in errors), and how the target and body are
 * read once the cheaper checks have passed.
 */
import type { Context } from 'hono';
import { ApiError, apiError } from '../../core/errors.ts';
import { phaseTimer } from '../../infra/metrics.ts';
import { redactBody } from '../../core/redact-secrets.ts';
import { IdempotencyKeySchema } from '../../core/schemas/fields.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AuthenticatedCredential } from '../../db/queries/identities.ts';
import { requireScope, withCallerRecovery, type Channel } from '../auth.ts';
import { parseOrThrow } from '../http/validation.ts';
import type { RegisteredOperation } from '../../operations/registry.ts';
import type { WriteAnswer } from './write-pipeline.ts';

export interface WriteCall {
  channel: Channel;
  /** The `Authorization` header of the HTTP request that carried the write. */
  authorization: string | undefined;
  /** The caller when already authenticated (the tool protocol checks once per HTTP request). */
  credential?: AuthenticatedCredential;
  /** As sent: a header value or a tool argument, not yet checked. */
  idempotencyKey: unknown;
  /** Reads the target id and the body; only called once credential, rate limit, scope and key have passed. */
  readInput(): Promise<{ targetId?: string; body: unknown }>;
  requestId: string;
}

export type SubmitAuthorisedWrite = (c: Context, spec: RegisteredOperation, call: WriteCall) => Promise<WriteAnswer>;

/** How each channel names the key, so the error points at what the client sent. */
const KEY_FIELD: Record<Channel, { field: string; noun: string }> = {
  http: { field: 'Idempotency-Key', noun: 'The Idempotency-Key header' },
  tool: { field: 'idempotency_key', noun: 'The idempotency_key argument' },
};

function checkIdempotencyKey(key: unknown, channel: Channel): string {
  const { field, noun } = KEY_FIELD[channel];
  if (key === undefined || key === null) {
    throw apiError('missing_idempotency_key', { noun }, { field });
  }
  const parsed = IdempotencyKeySchema.safeParse(key);
  if (!parsed.success) {
    throw apiError('invalid_idempotency_key', { noun }, { field });
  }
  return parsed.data;
}

export function createWriteSubmitter({
  config,
  authenticate,
  rateLimit,
  submitWrite,
  metrics,
  fence,
}: AppDeps): SubmitAuthorisedWrite {
  const time = phaseTimer(metrics.writePhase);
  return async function authoriseAndSubmitWrite(c, spec, call) {
    // First of all: a fenced service refuses every write before reading, checking or queueing anything.
    await fence.refuseWhileFenced();
    const credential = call.credential ?? (await time('auth', () => authenticate(c, call.authorization, call.channel)));
    await time('rate_limit', () =>
      rateLimit(c, 'write', credential.identity_id, {
        limit: config.WRITE_RATE_LIMIT,
        windowSeconds: config.WRITE_RATE_WINDOW_SECONDS,
      }),
    );
    const { idempotencyKey, input, body, redacted } = await time('validate', async () => {
      requireScope(credential, spec.scopes);
      const idempotencyKey = checkIdempotencyKey(call.idempotencyKey, call.channel);
      const input = await call.readInput();
      const parsed = parseOrThrow(spec.schema, input.body, call.channel === 'http' ? 'body' : 'arguments');
      // Before anything is hashed, queued or stored: the original secret goes no further than this.
      const redaction = redactBody(parsed);
      // A marker can be longer than the secret it replaces: the stored body must still fit the limits the commit checks.
      const body = redaction.redacted.length
        ? parseOrThrow(spec.schema, redaction.body, call.channel === 'http' ? 'body' : 'arguments')
        : redaction.body;
      const { redacted } = redaction;
      if (spec.bodyScope) requireScope(credential, [spec.bodyScope(body)]);
      return { idempotencyKey, input, body, redacted };
    });
    try {
      return await submitWrite({
        operation: spec.name,
        identityId: credential.identity_id,
        credentialId: credential.id,
        scopes: credential.scopes,
        idempotencyKey,
        targetId: input.targetId,
        body,
        redacted,
        requestId: call.requestId,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The key's reuse is decided past the channel (the pipeline, the commit job): named here as the client sent it.
      if (error.info.reason === 'idempotency_payload_mismatch')
        throw apiError('idempotency_payload_mismatch', undefined, { field: KEY_FIELD[call.channel].field });
      // So is a credential or connection revoked after the request was checked: the recovery is the channel's.
      const info = withCallerRecovery(error.info, call.channel);
      throw info === error.info ? error : new ApiError(info);
    }
  };
}
