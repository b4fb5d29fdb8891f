/**
 * A whole service for one test file: its own database (cloned), its own
 * queue prefix in the real Redis, its own projections directory, the real API
 * on a random port and, unless asked otherwise, a real worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type pg from 'pg';
import { startApiService, type ApiService } from '../../api/service.ts';
import type { Config } from '../../core/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { createLogDestination } from '../../infra/log-destination.ts';
import { createPool } from '../../db/pool.ts';
import { startWorker, type WorkerRuntime } from '../../worker/runtime.ts';
import { prepareQueueStore, queueBackendOf } from '../../infra/queues.ts';
import { cloneDatabase } from './database.ts';
import { testConfig } from './test-config.ts';

export interface Stack {
  base: string;
  /** Every log line of the API and worker, when started with `captureLogs`. */
  logs: string[];
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
  captureLogs?: boolean;
  /** Write the API's and worker's log lines (at LOG_LEVEL) to this file, as a deployment would. */
  logFile?: string;
  /** The migrated database to clone; inside vitest, the run's template (benches pass their own). */
  templateDatabase?: string;
  /**
   * Make PUBLIC_ORIGIN the stack's own origin (http://127.0.0.1:<port>), so a
   * real browser's same-origin admission passes the Origin check. The port is
   * only known once the API listens, hence set afterwards.
   */
  originFromPort?: boolean;
  /** The authorization server's fetch for Client ID Metadata Documents (ApiOptions.oauthFetch). */
  oauthFetch?: typeof fetch;
}

export async function startStack(overrides: Record<string, string> = {}, options: StackOptions = {}): Promise<Stack> {
  const database = await cloneDatabase(options.templateDatabase ?? inject('templateDatabase'));
  const projections = await mkdtemp(path.join(tmpdir(), 'ak-projections-'));
  const config = testConfig(database.url, projections, { PORT: '0', ...overrides });
  const logs: string[] = [];
  const sink = { write: (line: string) => void logs.push(line) };
  // A log file is written as the deployed processes write stdout (infra/log-destination.ts).
  const logFile = options.logFile ? createLogDestination(options.logFile) : null;
  const logger = options.captureLogs
    ? createLogger('trace', 'test', sink)
    : createLogger(config.LOG_LEVEL, 'test', logFile ?? undefined);
  const pool = createPool(config.DATABASE_URL, 20, 'ak-api');
  // What `npm run migrate` does for the queues when they live in PostgreSQL (no REDIS_URL).
  await prepareQueueStore(queueBackendOf(config), pool);
  const api = await startApiService(config, pool, logger, { oauthFetch: options.oauthFetch });
  const base = `http://127.0.0.1:${api.port}`;
  // The admission handler reads the origin from this same object on each request.
  if (options.originFromPort) config.PUBLIC_ORIGIN = base;
  const stack: Stack = {
    base,
    logs,
    config,
    pool,
    api,
    worker: null,
    async startWorker() {
      stack.worker = await startWorker({ config, pool, logger });
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
      logFile?.close();
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}
