/**
 * A whole service on private dependencies, for fault tests: its own
 * PostgreSQL cluster and Redis (which the test may kill and restart), the API
 * in this process on a random port, and the worker as a child process (which
 * the test may SIGKILL). `close()` removes all of it, also after a failure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { startApiService, type ApiService } from '../../api/service.ts';
import { loadConfig, type Config } from '../../core/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { ensureDatabase, migrate } from '../../db/migrate.ts';
import { createPool } from '../../db/pool.ts';
import {
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from './private-services.ts';
import { reap } from './reaper.ts';
import { createWorkerProcess, type WorkerProcess } from './worker-process.ts';

export interface FaultStack {
  base: string;
  config: Config;
  /** The test's own pool on the private database, for assertions. */
  pool: pg.Pool;
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  api: ApiService;
  worker: WorkerProcess;
  /** Temp directory with the worker log and the projections. */
  dir: string;
  /**
   * Why load generators should stop retrying now (the worker died by itself,
   * or the stack is closing after a failure), or null.
   */
  abortReason(): string | null;
  close(): Promise<void>;
}

export async function startFaultStack(overrides: Record<string, string> = {}): Promise<FaultStack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  let closing = false;
  const cleanup = async () => {
    closing = true;
    for (const fn of cleanups.reverse()) await fn().catch(() => {});
  };
  try {
    const dir = await mkdtemp(path.join(tmpdir(), 'ak-faults-'));
    const unreap = reap({ kind: 'dir', target: dir });
    cleanups.push(async () => {
      await rm(dir, { recursive: true, force: true });
      unreap();
    });
    const postgres = await startPrivatePostgres();
    cleanups.push(() => postgres.destroy());
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.destroy());

    const env: Record<string, string> = {
      DATABASE_URL: postgres.url('agent_knowledge'),
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'faults',
      PROJECTIONS_DIR: path.join(dir, 'projections'),
      PORT: '0',
      LOG_LEVEL: 'info',
      PUBLIC_ORIGIN: 'http://service.test',
      // The load comes from a handful of identities on one address.
      WRITE_RATE_LIMIT: '1000000',
      READ_RATE_LIMIT: '1000000',
      ADMISSION_RATE_LIMIT: '1000',
      ...overrides,
    };
    const config = loadConfig(env);
    await ensureDatabase(config.DATABASE_URL);
    const pool = createPool(config.DATABASE_URL, 5);
    cleanups.push(() => pool.end());
    await migrate(pool);

    const apiPool = createPool(config.DATABASE_URL, 20);
    cleanups.push(() => apiPool.end());
    const api = await startApiService(config, apiPool, createLogger('silent', 'api'));
    // After a failed test, load may still be arriving: close what does not drain in time.
    cleanups.push(() =>
      Promise.race([
        api.close(),
        new Promise<void>((resolve) =>
          setTimeout(() => {
            api.server.closeAllConnections();
            resolve();
          }, 10_000).unref(),
        ),
      ]),
    );

    const worker = createWorkerProcess(env, path.join(dir, 'worker.log'));
    cleanups.push(() => worker.kill());
    await worker.start();

    return {
      base: `http://127.0.0.1:${api.port}`,
      config,
      pool,
      postgres,
      redis,
      api,
      worker,
      dir,
      abortReason: () => worker.crashes[0] ?? (closing ? 'the stack is closing' : null),
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
