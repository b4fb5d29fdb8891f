/** Worker process entry: reads config, builds dependencies, owns shutdown. */
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../infra/logger.ts';
import { onShutdownSignal } from '../infra/shutdown.ts';
import { createPool } from '../db/pool.ts';
import { serveWorkerMetrics } from './metrics-server.ts';
import { lowerPriority, startWorker } from './runtime.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'worker');
// First, so the threads started later (libuv's pool, the file writers) inherit it: Linux sets it per thread.
if (config.WORKER_ROLES === 'render' && config.RENDER_WORKER_NICE > 0) lowerPriority(config.RENDER_WORKER_NICE, logger);
const pool = createPool(config.DATABASE_URL, config.WORKER_CONCURRENCY + 4, `ak-worker-${config.WORKER_ROLES}`);
const starting = startWorker({ config, pool, logger });
let metricsServer: Awaited<ReturnType<typeof serveWorkerMetrics>> | null = null;

// Handled from the first moment: the start catches up on pending renders
// before it resolves, and the commit workers already take jobs meanwhile, so a
// SIGTERM then must drain too (waiting for the start), not kill the process.
onShutdownSignal(
  logger,
  'jobs',
  async () => {
    const runtime = await starting;
    metricsServer?.close();
    // Worker.close() waits for active jobs; one stuck past the grace period is left to be retried (infra/shutdown.ts).
    await runtime.close();
    await pool.end();
  },
  config.SHUTDOWN_GRACE_MS,
);

const runtime = await starting;
logger.info('worker started');
metricsServer = config.WORKER_METRICS_PORT ? await serveWorkerMetrics(runtime.metrics, config, logger) : null;
