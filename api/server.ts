/** API process entry: reads config, builds dependencies, owns shutdown. */
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../infra/logger.ts';
import { onShutdownSignal } from '../infra/shutdown.ts';
import { createPool } from '../db/pool.ts';
import { startApiService } from './service.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'api');
const pool = createPool(config.DATABASE_URL, 20, 'ak-api');
const service = await startApiService(config, pool, logger);
logger.info({ port: service.port, origin: config.PUBLIC_ORIGIN }, 'api listening');

onShutdownSignal(
  logger,
  'requests',
  async () => {
    await service.close();
    await pool.end();
  },
  config.SHUTDOWN_GRACE_MS,
);
