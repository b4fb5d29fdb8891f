/**
 * Operator endpoints: queue a rebuild, read the status. They take an operator
 * token configured by the deployment (only its SHA-256, OPERATOR_TOKEN_SHA256),
 * not an agent credential: no public scope reaches them.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { sha256Hex } from '../../core/hash.ts';
import { REBUILD_JOB, RebuildJobSchema } from '../../core/queue-contract.ts';
import { readOperatorStatus } from '../../ops/status.ts';
import type { AppDeps } from '../app-deps.ts';
import { readJsonBody } from '../body.ts';
import { CACHE } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

function requireOperator(c: Context, expectedHash: string | undefined): void {
  if (!expectedHash) {
    throw apiError('insufficient_permission', 'Operator endpoints are disabled: OPERATOR_TOKEN_SHA256 is not configured.', {
      reason: 'operator_disabled',
    });
  }
  const token = /^Bearer[ ]+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const given = Buffer.from(sha256Hex(token ?? ''), 'hex');
  if (!token || !timingSafeEqual(given, Buffer.from(expectedHash, 'hex'))) {
    throw apiError('authentication_required', 'An operator token is required: Authorization: Bearer <operator token>.', {
      reason: 'operator_token_required',
    });
  }
}

export function createOperatorHandlers({ config, pool, queues }: AppDeps) {
  return {
    async rebuild(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      const target = parseOrThrow(RebuildJobSchema, await readJsonBody(c), 'body');
      if (target.id && !target.type) {
        throw apiError('invalid_arguments', 'type: required when id is given.', { reason: 'missing_field', field: 'type' });
      }
      const job = await queues.render.add(REBUILD_JOB, target, { removeOnComplete: { age: 86_400 }, removeOnFail: { age: 86_400 } });
      return c.json({ job_id: job.id, status: 'queued', target, status_url: '/api/ops/status' }, 202, { 'Cache-Control': CACHE.private });
    },
    async status(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      return c.json(await readOperatorStatus(pool, [queues.commit, queues.render]), 200, { 'Cache-Control': CACHE.private });
    },
  };
}
