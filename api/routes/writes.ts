/** Every HTTP write: one handler shape, parameterised by its entry in WRITE_OPERATIONS. */
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { IdempotencyKeySchema } from '../../core/schemas/fields.ts';
import type { AppDeps } from '../app-deps.ts';
import { authenticate, authorizationOf, requireScope } from '../auth.ts';
import { readJsonBody } from '../body.ts';
import { CACHE } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';
import type { WriteOperation } from '../write-operations.ts';

function idempotencyKeyOf(c: Context): string {
  const key = c.req.header('idempotency-key');
  if (key === undefined) {
    throw apiError('invalid_arguments', 'The Idempotency-Key header is required on every write: "<client>:<operation id>", e.g. "agent-7:2f9c1e0a-create".', {
      reason: 'missing_idempotency_key', field: 'Idempotency-Key',
    });
  }
  if (!IdempotencyKeySchema.safeParse(key).success) {
    throw apiError('invalid_arguments', 'Idempotency-Key must be 1-64 then 8-128 characters of letters, digits, _ and -, joined by a colon.', {
      reason: 'invalid_idempotency_key', field: 'Idempotency-Key',
    });
  }
  return key;
}

export function createWriteHandler({ config, pool, rateLimit, submitWrite }: AppDeps, spec: WriteOperation) {
  return async function handleWrite(c: Context): Promise<Response> {
    const credential = await authenticate(pool, authorizationOf(c));
    await rateLimit(c, 'write', credential.identity_id, {
      limit: config.WRITE_RATE_LIMIT, windowSeconds: config.WRITE_RATE_WINDOW_SECONDS,
    });
    requireScope(credential, spec.scopes);
    const idempotencyKey = idempotencyKeyOf(c);
    const body = parseOrThrow(spec.schema, await readJsonBody(c), 'body');
    if (spec.bodyScope) requireScope(credential, [spec.bodyScope(body)]);
    const answer = await submitWrite({
      operation: spec.operation,
      identityId: credential.identity_id,
      credentialId: credential.id,
      scopes: credential.scopes,
      idempotencyKey,
      targetId: spec.param ? c.req.param(spec.param) : undefined,
      body,
      requestId: c.get('requestId'),
    });
    const headers: Record<string, string> = { 'Cache-Control': CACHE.private };
    const links = answer.receipt.resource.links;
    if (answer.status === 201 && links) headers.Location = links.html;
    return c.json(answer.receipt, answer.status, headers);
  };
}
