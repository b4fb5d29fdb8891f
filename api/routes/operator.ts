/**
 * Operator endpoints: queue a rebuild, read the status, raise and lower the
 * serving fence. They take an operator
 * token configured by the deployment (only its SHA-256, OPERATOR_TOKEN_SHA256),
 * not an agent credential: no public scope reaches them.
 */
import type { Context } from 'hono';
import {
  REBUILD_JOB,
  RebuildJobSchema,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_QUEUE,
  withTypeFromId,
} from '../../core/queue-contract.ts';
import { FenceCommandSchema } from '../../core/schemas/fence.ts';
import { applyFenceCommand, readFenceStatus } from '../../db/queries/serving-fence.ts';
import { readOperatorStatus } from '../../infra/operator-status.ts';
import type { AppDeps } from '../app-deps.ts';
import { readJsonBody } from '../http/body.ts';
import { requireOperator } from '../operator-token.ts';
import { clientAddress } from '../limits/rate-limit.ts';
import { CACHE } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

export function createOperatorHandlers({ config, pool, queues, fence }: AppDeps) {
  return {
    async rebuild(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      const target = parseOrThrow(RebuildJobSchema, withTypeFromId(await readJsonBody(c)), 'body');
      const job = await queues.render.add(REBUILD_JOB, target, {
        removeOnComplete: { age: 86_400 },
        removeOnFail: { age: 86_400 },
      });
      return c.json({ job_id: job.id, status: 'queued', target, status_url: '/api/ops/status' }, 202, {
        'Cache-Control': CACHE.private,
      });
    },
    async status(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      const status = await readOperatorStatus(pool, Object.values(queues), {
        searchIndexQueue: SEARCH_INDEX_QUEUE,
        searchCompactQueue: SEARCH_COMPACT_QUEUE,
        retryAfterSeconds: config.RETRY_AFTER_SECONDS,
      });
      return c.json(status, 200, { 'Cache-Control': CACHE.private });
    },
    async readFence(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      return c.json(await readFenceStatus(pool, config.RETRY_AFTER_SECONDS), 200, { 'Cache-Control': CACHE.private });
    },
    /** `{"state": "on", "reason": "…", "retry_after": 60}` raises the fence, `{"state": "off"}` lowers it. */
    async changeFence(c: Context): Promise<Response> {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      const command = parseOrThrow(FenceCommandSchema, await readJsonBody(c), 'body');
      const by = `operator endpoint, from ${clientAddress(c, config.TRUSTED_PROXY_HOPS)}`;
      const change = await applyFenceCommand(pool, command, by, config.RETRY_AFTER_SECONDS);
      // This process acts on it at once; the others within FENCE_MAX_AGE_MS.
      fence.invalidate();
      return c.json(change, 200, { 'Cache-Control': CACHE.private });
    },
  };
}
