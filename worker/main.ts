/** Worker process entry: reads config, builds dependencies, owns shutdown. */
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { onShutdownSignal } from '../core/shutdown.ts';
import { createPool } from '../db/pool.ts';
import { serveWorkerMetrics } from './metrics-server.ts';
import { startWorker } from './runtime.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'worker');
const pool = createPool(config.DATABASE_URL, config.WORKER_CONCURRENCY + 4);
const runtime = await startWorker({ config, pool, logger });
logger.info('worker started');
const metricsServer = config.WORKER_METRICS_PORT ? await serveWorkerMetrics(runtime.metrics, config, logger) : null;

onShutdownSignal(logger, 'jobs', async () => {
  metricsServer?.close();
  // Worker.close() waits for active jobs: nothing is cut mid-way.
  await runtime.close();
  await pool.end();
});
