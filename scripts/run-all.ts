/**
 * `npm start` on one machine: migrates, then runs the API and one worker as
 * two processes. With no REDIS_URL the queues run on PostgreSQL.
 * SIGINT/SIGTERM are forwarded (the children drain); a child that crashes is
 * restarted with backoff, within a bound per minute (scripts/supervise.ts).
 *
 * With no DATABASE_URL (the embedded mode) this process hosts the embedded
 * PostgreSQL and runs the API and the worker itself, committing each write
 * in the request (see startEmbedded): PGlite is one session, and the queue's
 * hops between processes over it were most of a write's time.
 */
import { startApiService } from '../api/service.ts';
import { loadConfig, type Config } from '../core/config.ts';
import { createLogger } from '../infra/logger.ts';
import { onShutdownSignal } from '../infra/shutdown.ts';
import { prepareQueueStore, queueBackendOf } from '../infra/queues.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { startWorker } from '../worker/runtime.ts';
import { createServingFence } from '../core/serving-fence.ts';
import { readServingFence } from '../db/queries/serving-fence.ts';
import { superviseChildren } from './supervise.ts';

const config = loadConfig();
let embedded: EmbeddedPostgres | null = null;
if (config.EMBEDDED_DATABASE) {
  embedded = await startEmbeddedPostgres(config.EMBEDDED_DATA_DIR, config.EMBEDDED_PG_PORT);
  console.log(
    `embedded PostgreSQL (PGlite) on ${embedded.url.replace(/^postgres:\/\/[^@]*@/, '')}, data in ${config.EMBEDDED_DATA_DIR}`,
  );
} else {
  await ensureDatabase(config.DATABASE_URL);
}
const pool = createPool(config.DATABASE_URL, 1);
const applied = await migrate(pool);
await prepareQueueStore(queueBackendOf(config), pool);
await pool.end();
if (applied.length) console.log(`applied migrations ${applied.join(', ')}`);
if (!config.REDIS_URL) console.log('no REDIS_URL: queues and rate limits run on PostgreSQL');

if (embedded) {
  await startEmbedded(config, embedded);
} else {
  startChildren();
}

/** API and worker in this process, on one pool; writes commit in the request, renders follow in-process. */
async function startEmbedded(config: Config, database: EmbeddedPostgres): Promise<void> {
  const services = createPool(config.DATABASE_URL, 20);
  const logger = createLogger(config.LOG_LEVEL, 'api');
  // One fence reading for both: in PGlite it costs ~50 ms of the one session, once a second each.
  const fence = createServingFence(() => readServingFence(services), { retryAfterSeconds: config.RETRY_AFTER_SECONDS });
  // Both start at once; a write that arrives before the worker is up waits for it.
  const starting = startWorker({
    config,
    pool: services,
    logger: createLogger(config.LOG_LEVEL, 'worker'),
    commitQueue: false,
    fence,
  });
  const [worker, api] = await Promise.all([
    starting,
    startApiService(config, services, logger, { commitHere: async (job) => (await starting).commit(job), fence }),
  ]);
  logger.info({ port: api.port, origin: config.PUBLIC_ORIGIN }, 'api listening');
  onShutdownSignal(
    logger,
    'requests and renders',
    async () => {
      await api.close();
      await worker.close();
      await services.end();
      await database.stop();
    },
    config.SHUTDOWN_GRACE_MS,
  );
}

function startChildren(): void {
  const env = { ...process.env, DATABASE_URL: config.DATABASE_URL };
  const supervisor = superviseChildren(['api/server.ts', 'worker/main.ts'], {
    env,
    backoffMs: config.RESTART_BACKOFF_MS,
    maxPerMinute: config.RESTART_MAX_PER_MINUTE,
    graceMs: config.SHUTDOWN_GRACE_MS,
    log: (line) => console.log(line),
    onStopped: (exitCode) => process.exit(exitCode),
  });
  // SIGINT/SIGTERM are forwarded: the children drain, then the launcher exits; a child still running at the end of the grace period is killed.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => supervisor.stopAll(signal));
}
