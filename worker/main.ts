/** Worker process entry: reads config, builds dependencies, owns shutdown. */
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { createPool } from '../db/pool.ts';
import { serveWorkerMetrics } from './metrics-server.ts';
import { startWorker } from './runtime.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'worker');
const pool = createPool(config.DATABASE_URL, config.WORKER_CONCURRENCY + 4);
const runtime = await startWorker({ config, pool, logger });
logger.info('worker started');
const metricsServer = config.WORKER_METRICS_PORT ? await serveWorkerMetrics(runtime.metrics, config, logger) : null;

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second signal forces
    stopping = true;
    logger.info({ signal }, 'draining jobs');
    metricsServer?.close();
    void runtime.close().then(() => pool.end()).then(() => process.exit(0));
  });
}
