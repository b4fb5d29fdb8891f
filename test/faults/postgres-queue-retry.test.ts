/**
 * Without Redis, writes go through BullMQ's PostgreSQL backend and the API
 * reads the commit job back from it. That backend keeps the reason of a
 * failed attempt on a job a later attempt completes, so a write that
 * committed on its retry was read as failed: its own request got a 200
 * replay from the log instead of its 201. And a worker started before
 * `npm run migrate` had made that backend's tables spun a core forever,
 * retrying BullMQ's bootstrap; it now refuses to start.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApiService } from '../../api/service.ts';
import { createPool } from '../../db/pool.ts';
import { createLogger } from '../../infra/logger.ts';
import { startWorker } from '../../worker/runtime.ts';
import { admit, send, type Agent } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { testConfig } from '../helpers/test-config.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack({ REDIS_URL: '' });
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

describe('a write whose first commit attempts fail, on the PostgreSQL queue', () => {
  it('is answered 201 by its own request once a retry commits it', async () => {
    // The first two commits of a discussion fail (a sequence is not rolled back with them); the third succeeds.
    await stack.pool.query(`
      CREATE SEQUENCE flaky_commits;
      CREATE FUNCTION fail_first_commits() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('flaky_commits') <= 2 THEN RAISE EXCEPTION 'transient failure for the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER fail_first_commits BEFORE INSERT ON discussions
        FOR EACH ROW EXECUTE FUNCTION fail_first_commits();`);
    try {
      const res = await send(stack.base, agent, 'POST', '/api/discussions', { title: 'Flaky commit', body: 'b' });
      expect(res.status).toBe(201);
      expect(res.body.replayed).not.toBe(true);
      const { rows } = await stack.pool.query<{ n: string }>("SELECT nextval('flaky_commits') AS n");
      expect(Number(rows[0]!.n)).toBeGreaterThan(3);
    } finally {
      await stack.pool.query('DROP TRIGGER fail_first_commits ON discussions; DROP FUNCTION fail_first_commits()');
    }
  });
});

describe('the PostgreSQL queue store before `npm run migrate` has made it', () => {
  it('stops the worker and the API from starting, saying what to run', async () => {
    const database = await cloneDatabase(inject('templateDatabase'));
    const projections = await mkdtemp(path.join(tmpdir(), 'ak-queue-store-'));
    const pool = createPool(database.url, 4);
    try {
      const config = testConfig(database.url, projections, { REDIS_URL: '' });
      const logger = createLogger('silent', 'test');
      await expect(startWorker({ config, pool, logger })).rejects.toThrow(/run `npm run migrate` first/);
      await expect(startApiService(config, pool, logger)).rejects.toThrow(/run `npm run migrate` first/);
    } finally {
      await pool.end();
      await database.drop();
      await rm(projections, { recursive: true, force: true });
    }
  });
});
