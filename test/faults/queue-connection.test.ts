/**
 * The write pipeline when its queue connection drops at the worst moment:
 * right after the job was queued, before the pipeline has checked whether
 * it already finished. Real Redis and Postgres; the fault is a real
 * disconnect, triggered by the queue's own "waiting" event.
 */
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMIT_QUEUE } from '../../core/queue-contract.ts';
import { redisConnectionOptions } from '../../infra/redis.ts';
import { createWritePipeline } from '../../api/writes/write-pipeline.ts';
import { admit, newKey, problemBody, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

describe('a write whose queue connection drops right after queueing', () => {
  it('is answered with its receipt from the commit event, and nothing is left unhandled', async () => {
    const connection = redisConnectionOptions(stack.config.REDIS_URL!);
    const queue = new Queue(COMMIT_QUEUE, {
      connection: { ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false },
      prefix: stack.config.QUEUE_PREFIX,
    });
    queue.on('error', () => {});
    const events = new QueueEvents(COMMIT_QUEUE, { connection, prefix: stack.config.QUEUE_PREFIX });
    events.on('error', () => {});
    await events.waitUntilReady();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The connection goes the moment the job is in Redis; the worker still commits it.
      queue.once('waiting', () => void queue.disconnect());
      const submit = createWritePipeline({
        db: stack.pool,
        queue,
        events,
        commitTimeoutMs: 10_000,
        retryAfterSeconds: 1,
      });
      const body = problemBody({ title: 'Queued as the connection dropped' });
      const answer = await submit({
        operation: 'create_problem',
        identityId: agent.id,
        credentialId: agent.credentialId,
        scopes: ['knowledge'],
        idempotencyKey: newKey(),
        body,
        redacted: [],
        requestId: 'req_dropped',
      });
      // 201, not 200 replayed: the commit event answered, not the operation log after a timeout.
      expect(answer.status).toBe(201);
      expect(answer.receipt).toMatchObject({ operation: 'create_problem', status: 'committed', replayed: false });
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await events.close();
      await queue.close().catch(() => {});
    }
  });
});

describe('a repeated write whose job has already finished', () => {
  it('is answered from the finished job in the queue, without the operation log', async () => {
    const connection = redisConnectionOptions(stack.config.REDIS_URL!);
    const queue = new Queue(COMMIT_QUEUE, { connection, prefix: stack.config.QUEUE_PREFIX });
    const events = new QueueEvents(COMMIT_QUEUE, { connection, prefix: stack.config.QUEUE_PREFIX });
    await events.waitUntilReady();
    try {
      // No database: only the queue can answer. The pipeline listens before it queues,
      // so the repeat's job (already completed) is read back when the queue says "duplicated".
      const noDatabase = { query: () => Promise.reject(new Error('no database here')) };
      const submit = createWritePipeline({
        db: noDatabase,
        queue,
        events,
        commitTimeoutMs: 5_000,
        retryAfterSeconds: 1,
      });
      const request = {
        operation: 'create_problem' as const,
        identityId: agent.id,
        credentialId: agent.credentialId,
        scopes: ['knowledge'],
        idempotencyKey: newKey(),
        body: problemBody({ title: 'Sent twice, one after the other' }),
        redacted: [],
      };
      const first = await submit({ ...request, requestId: 'req_first' });
      expect(first.status).toBe(201);
      const again = await submit({ ...request, requestId: 'req_again' });
      expect(again.status).toBe(200);
      expect(again.receipt).toEqual({ ...first.receipt, replayed: true });
    } finally {
      await events.close();
      await queue.close();
    }
  });
});
