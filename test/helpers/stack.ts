/**
 * A whole service for one test file: its own database (cloned), its own
 * queue prefix in the real Redis, its own projections directory, the real API
 * on a random port and, unless asked otherwise, a real worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type pg from 'pg';
import { startApiService, type ApiService } from '../../api/service.ts';
import { loadConfig, type Config } from '../../core/config.ts';
import { createLogger } from '../../core/logger.ts';
import { redisConnectionOptions } from '../../core/redis.ts';
import { createPool } from '../../db/pool.ts';
import { startWorker, type WorkerRuntime } from '../../worker/runtime.ts';
import { cloneDatabase } from './database.ts';

export interface Stack {
  base: string;
  config: Config;
  pool: pg.Pool;
  api: ApiService;
  worker: WorkerRuntime | null;
  startWorker(): Promise<WorkerRuntime>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Start a worker too (default true). */
  worker?: boolean;
  /**
   * Make PUBLIC_ORIGIN the stack's own origin (http://127.0.0.1:<port>), so a
   * real browser's same-origin admission passes the Origin check. The port is
   * only known once the API listens, hence set afterwards.
   */
  originFromPort?: boolean;
}

export async function startStack(overrides: Record<string, string> = {}, options: StackOptions = {}): Promise<Stack> {
  const database = await cloneDatabase(inject('templateDatabase'));
  const projections = await mkdtemp(path.join(tmpdir(), 'ak-projections-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomUUID().replaceAll('-', '')}`,
    PROJECTIONS_DIR: projections,
    PORT: '0',
    LOG_LEVEL: 'silent',
    PUBLIC_ORIGIN: 'http://service.test',
    ...overrides,
  });
  const logger = createLogger(config.LOG_LEVEL, 'test');
  const pool = createPool(config.DATABASE_URL, 20);
  const api = await startApiService(config, pool, logger);
  const base = `http://127.0.0.1:${api.port}`;
  // The admission handler reads the origin from this same object on each request.
  if (options.originFromPort) config.PUBLIC_ORIGIN = base;
  const stack: Stack = {
    base,
    config,
    pool,
    api,
    worker: null,
    async startWorker() {
      stack.worker = await startWorker({ config, pool, connection: redisConnectionOptions(config.REDIS_URL), logger });
      return stack.worker;
    },
    async stopWorker() {
      await stack.worker?.close();
      stack.worker = null;
    },
    async close() {
      await stack.stopWorker();
      await api.close();
      await pool.end();
      await database.drop();
      await rm(projections, { recursive: true, force: true });
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}
