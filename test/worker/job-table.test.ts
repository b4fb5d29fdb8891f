/**
 * The worker's job table (worker/jobs/table.ts) is what the worker runs:
 * every queue of the queue contract has exactly one processor in it, and a
 * worker started with given roles takes jobs from exactly the queues the
 * table gives those roles, and from no other (real Redis, its own prefix).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Config } from '../../core/config.ts';
import * as contract from '../../core/queue-contract.ts';
import { createPool } from '../../db/pool.ts';
import { createLogger } from '../../infra/logger.ts';
import { redisConnectionOptions } from '../../infra/redis.ts';
import { consumedQueues, JOBS, rolesOf } from '../../worker/jobs/table.ts';
import { startWorker } from '../../worker/runtime.ts';
import { eventually } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/test-config.ts';

/** Every queue name the contract exports (`…_QUEUE`), whether or not it was added to QUEUES. */
const contractQueues = Object.entries(contract)
  .filter(([name, value]) => name.endsWith('_QUEUE') && typeof value === 'string')
  .map(([, value]) => value as string);

describe('the job table', () => {
  it('has exactly one processor for every queue of the queue contract, and none for any other', () => {
    expect(new Set(contractQueues)).toEqual(new Set(contract.QUEUES));
    for (const queue of contractQueues) {
      const entries = JOBS.filter((job) => job.schedule === 'on-demand' && job.name === queue);
      expect(entries, queue).toHaveLength(1);
      expect(entries[0]!.roles.length, queue).toBeGreaterThan(0);
    }
    const onDemand = JOBS.filter((job) => job.schedule === 'on-demand').map((job) => job.name);
    expect(onDemand.toSorted()).toEqual(contractQueues.toSorted());
    // One entry per name: a request names exactly one job.
    expect(new Set(JOBS.map((job) => job.name)).size).toBe(JOBS.length);
  });

  it('gives every queue to some role, so that a worker of all roles consumes every queue', () => {
    expect(consumedQueues(rolesOf('all', false), false).toSorted()).toEqual(contractQueues.toSorted());
  });
});

describe('a started worker', () => {
  let database: Awaited<ReturnType<typeof cloneDatabase>>;
  let dir: string;
  let pool: pg.Pool;
  const logger = createLogger('silent', 'test');

  beforeAll(async () => {
    database = await cloneDatabase(inject('templateDatabase'));
    dir = await mkdtemp(path.join(tmpdir(), 'ak-job-table-'));
    pool = createPool(database.url, 10, 'ak-test');
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The queues that have a worker connected, under this prefix. */
  async function queuesWithWorkers(config: Config): Promise<string[]> {
    const connection = redisConnectionOptions(config.REDIS_URL!);
    const found: string[] = [];
    for (const name of contractQueues) {
      const queue = new Queue(name, { connection, prefix: config.QUEUE_PREFIX });
      try {
        if ((await queue.getWorkersCount()) > 0) found.push(name);
      } finally {
        await queue.close();
      }
    }
    return found.toSorted();
  }

  const renderQueues = ['render', 'search-compact', 'search-index'];
  it.each([
    ['all', true, ['commit', ...renderQueues]],
    ['commit', true, ['commit']],
    ['render', true, renderQueues],
    // Writes committed in the request (the embedded mode): no commit queue, whatever the roles.
    ['all', false, renderQueues],
  ] as const)(
    'with WORKER_ROLES=%s (commit queue: %s) consumes exactly the queues the table gives those roles',
    async (workerRoles, commitQueue, queues) => {
      // A fresh queue prefix of its own (testConfig), so no other worker's connections are counted.
      const config = testConfig(database.url, dir, { WORKER_ROLES: workerRoles });
      const expected = consumedQueues(rolesOf(workerRoles, !commitQueue), !commitQueue).toSorted();
      expect(expected).toEqual([...queues].toSorted());
      const worker = await startWorker({ config, pool, logger, commitQueue });
      try {
        expect(worker.queues.toSorted()).toEqual(expected);
        // Each BullMQ worker names its Redis connection after its queue once connected.
        await eventually(async () => (await queuesWithWorkers(config)).length >= expected.length);
        expect(await queuesWithWorkers(config)).toEqual(expected);
      } finally {
        await worker.close();
      }
      // Closed, it holds no queue.
      expect(await queuesWithWorkers(config)).toEqual([]);
    },
  );
});
