/** API process entry: reads config, builds dependencies, owns shutdown. */
import { loadConfig } from '../core/config.ts';
import { createLogger } from '../core/logger.ts';
import { createPool } from '../db/pool.ts';
import { startApiService } from './service.ts';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'api');
const pool = createPool(config.DATABASE_URL, 20);
const service = await startApiService(config, pool, logger);
logger.info({ port: service.port, origin: config.PUBLIC_ORIGIN }, 'api listening');

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second signal forces
    stopping = true;
    logger.info({ signal }, 'draining requests');
    void service.close().then(() => pool.end()).then(() => process.exit(0));
  });
}
