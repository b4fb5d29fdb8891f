/**
 * The API as `createApp(deps)` with the service's own dependencies, for tests
 * that drive it with `app.request`: a throwaway database holding the record
 * fixtures, queues under a fresh prefix in the real Redis, a temp projections
 * folder, no HTTP server and no worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import type pg from 'pg';
import { inject } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppEnv } from '../../api/app-deps.ts';
import { createAppDeps } from '../../api/service.ts';
import { createPool } from '../../db/pool.ts';
import { createLogger } from '../../infra/logger.ts';
import { cloneDatabase } from './database.ts';
import { insertFixtureRecords } from './record-fixtures.ts';
import { testConfig } from './test-config.ts';

export interface InProcessApp {
  app: Hono<AppEnv>;
  pool: pg.Pool;
  close(): Promise<void>;
}

export async function startInProcessApp(): Promise<InProcessApp> {
  const database = await cloneDatabase(inject('templateDatabase'));
  const projections = await mkdtemp(path.join(tmpdir(), 'ak-in-process-'));
  const config = testConfig(database.url, projections);
  const pool = createPool(config.DATABASE_URL, 4);
  await insertFixtureRecords(pool);
  const built = await createAppDeps(config, pool, createLogger('silent', 'test'));
  return {
    app: createApp(built.deps),
    pool,
    async close() {
      await built.close();
      await pool.end();
      await database.drop();
      await rm(projections, { recursive: true, force: true });
    },
  };
}
