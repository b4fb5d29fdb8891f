/**
 * Builds the API's dependencies and starts listening. Used by the entry file
 * and by the tests, so both run the same service.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import { drainDeadlineMs } from '../infra/shutdown.ts';
import { createApiMetrics, phaseTimer, type ApiMetrics } from '../infra/metrics.ts';
import {
  COMMIT_QUEUE,
  RENDER_QUEUE,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_QUEUE,
  type CommitJob,
  type CommitResult,
} from '../core/queue-contract.ts';
import { createQueue, createQueueEvents, queueBackendOf, requireQueueStore } from '../infra/queues.ts';
import { redisConnectionOptions } from '../infra/redis.ts';
import { loadHtmlRenderer } from '../projections/html.ts';
import { createServingFence, type ServingFence } from '../core/serving-fence.ts';
import { readServingFence } from '../db/queries/serving-fence.ts';
import { createApp, createMetricsApp } from './app.ts';
import type { AppDeps } from './app-deps.ts';
import { createCredentialCheck } from './limits/auth-failures.ts';
import { createClientErrorHandler, createRequestErrorHandler } from './http/client-error.ts';
import { keepAlreadySent } from './http/already-sent.ts';
import { guardConnections, serverTimeouts, slowRequestError } from './http/connections.ts';
import { startCounterSweeper, type CounterSweeper } from './limits/counter-sweeper.ts';
import { createLocalCounter, postgresBatchStore, redisBatchStore } from './limits/local-counter.ts';
import { createReadAdmission, createRateLimiter, readRule } from './limits/rate-limit.ts';
import { createFastReads, type FastRead } from './reads/fast-reads.ts';
import { createRequestRecorder } from './http/observability.ts';
import { createFileCache } from './reads/projection-cache.ts';
import { createWritePipeline, readingYourWrites } from './writes/write-pipeline.ts';
import { createSearchPool } from './routes/search.ts';

export interface ApiService {
  port: number;
  /** The port of the token-free metrics listener (API_METRICS_PORT), or null. */
  metricsPort: number | null;
  server: Server;
  metrics: ApiMetrics;
  close(): Promise<void>;
}

/**
 * How long a drain waits for in-flight answers before closing every
 * connection: a second before the process's drain deadline, so the pools
 * still close in time. A write cut there is replayed by its client with the
 * same key.
 */
const drainGraceMs = (config: Config) =>
  Math.max(config.SHUTDOWN_GRACE_MS / 4, drainDeadlineMs(config.SHUTDOWN_GRACE_MS) - 1_000);

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export interface ApiOptions {
  /** Commit writes in this process (the embedded mode's single process); see write-pipeline.ts. */
  commitHere?: (job: CommitJob) => Promise<CommitResult>;
  /** The serving fence, when this process has one already (the embedded mode shares the worker's). */
  fence?: ServingFence;
  /**
   * Tests only: the authorization server's fetch for Client ID Metadata
   * Documents, so a test can serve one from its own loopback https server
   * (which oidc-provider's default fetch rightly refuses). The entry file
   * never sets it.
   */
  oauthFetch?: typeof fetch;
}

/** The app's dependencies, built from config: what the entry file serves and what in-process tests drive. */
export async function createAppDeps(
  config: Config,
  pool: pg.Pool,
  logger: Logger,
  options: ApiOptions = {},
): Promise<{ deps: AppDeps; fastReads: FastRead; close(): Promise<void> }> {
  const backend = queueBackendOf(config);
  await requireQueueStore(backend, pool);
  let redis: Redis | null = null;
  let sweeper: CounterSweeper | null = null;
  if (config.REDIS_URL) {
    // Requests must fail fast (503) while Redis is away, not queue up behind it.
    redis = new Redis({
      ...redisConnectionOptions(config.REDIS_URL),
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    redis.on('error', () => {});
  } else {
    // Redis expires its keys; PostgreSQL's counter rows are swept.
    sweeper = startCounterSweeper(pool, config.RATE_LIMIT_SWEEP_SECONDS * 1000, logger);
  }
  // Counted in memory, added to the shared store in the background: no round trip per request.
  const counts = createLocalCounter(
    redis ? redisBatchStore(redis) : postgresBatchStore(pool),
    config.RATE_LIMIT_SYNC_MS,
  );
  const queue = createQueue(backend, COMMIT_QUEUE, true);
  const renderQueue = createQueue(backend, RENDER_QUEUE, true);
  const searchIndexQueue = createQueue(backend, SEARCH_INDEX_QUEUE, true);
  const searchCompactQueue = createQueue(backend, SEARCH_COMPACT_QUEUE, true);
  const events = await createQueueEvents(backend, COMMIT_QUEUE);
  const fence =
    options.fence ??
    createServingFence(() => readServingFence(pool), { retryAfterSeconds: config.RETRY_AFTER_SECONDS });
  // Pages rendered on demand show the fence banner, whichever kind stands.
  const html = await loadHtmlRenderer(config.ASTRO_ENTRY, () => fence.current());
  const metrics = createApiMetrics();
  const recordRequest = createRequestRecorder(logger, metrics);
  const projectionFiles = createFileCache(config.PROJECTION_CACHE_BYTES);

  // The embedded database has one session for every connection: searches set their settings per transaction there.
  const searchPool = config.EMBEDDED_DATABASE
    ? undefined
    : createSearchPool(config.DATABASE_URL, pool.options.application_name);
  const deps: AppDeps = {
    config,
    pool,
    searchPool,
    logger,
    html,
    metrics,
    fence,
    recordRequest,
    projectionFiles,
    oauthFetch: options.oauthFetch,
    queues: { commit: queue, render: renderQueue, searchIndex: searchIndexQueue, searchCompact: searchCompactQueue },
    rateLimit: createRateLimiter(counts.counter, config.QUEUE_PREFIX),
    authenticate: createCredentialCheck(pool, config, counts.counter, config.QUEUE_PREFIX),
    submitWrite: readingYourWrites(
      createWritePipeline({
        db: pool,
        queue,
        events,
        commitTimeoutMs: config.COMMIT_TIMEOUT_MS,
        retryAfterSeconds: config.RETRY_AFTER_SECONDS,
        time: phaseTimer(metrics.writePhase),
        commitHere: options.commitHere,
      }),
      pool,
      config.PROJECTIONS_DIR,
      config.RETRY_AFTER_SECONDS,
    ),
  };
  // Cached default projections, answered before the router (api/reads/fast-reads.ts).
  const fastReads = createFastReads({
    projectionsDir: config.PROJECTIONS_DIR,
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
    files: projectionFiles,
    recordRequest,
    admitRead: createReadAdmission(counts, config.QUEUE_PREFIX, readRule(config)),
  });
  return {
    deps,
    fastReads,
    async close() {
      sweeper?.stop();
      await Promise.allSettled([
        queue.close(),
        renderQueue.close(),
        searchIndexQueue.close(),
        searchCompactQueue.close(),
        events?.close(),
      ]);
      redis?.disconnect();
      await searchPool?.end();
    },
  };
}

export async function startApiService(
  config: Config,
  pool: pg.Pool,
  logger: Logger,
  options: ApiOptions = {},
): Promise<ApiService> {
  const built = await createAppDeps(config, pool, logger, options);
  const { deps } = built;
  const { metrics } = deps;
  const app = createApp(deps);
  // `serve()` without its defaults: requests the parser or the adapter refuse get the Error shape too.
  const server = createServer(serverTimeouts(config));
  const connections = guardConnections(server, config, logger);
  const appListener = getRequestListener(keepAlreadySent(app.fetch), {
    hostname: config.HOST,
    errorHandler: createRequestErrorHandler(logger),
  });
  const { fastReads } = built;
  server.on(
    'request',
    connections.listener(function serveRequest(req, res) {
      if (!fastReads(req, res)) void appListener(req, res);
    }),
  );
  server.on('clientError', createClientErrorHandler(logger, slowRequestError(config)));
  const port = await listen(server, config.PORT, config.HOST);

  let metricsServer: Server | null = null;
  let metricsPort: number | null = null;
  if (config.API_METRICS_PORT) {
    metricsServer = createServer(getRequestListener(createMetricsApp(deps).fetch));
    metricsPort = await listen(metricsServer, config.API_METRICS_PORT, config.HOST);
  }

  return {
    port,
    metricsPort,
    server,
    metrics,
    async close() {
      // Stop accepting, refuse what arrives on kept-alive connections, let in-flight requests finish.
      await Promise.all([
        connections.drain(drainGraceMs(config)),
        metricsServer &&
          new Promise<void>((resolve) => {
            metricsServer.close(() => resolve());
            metricsServer.closeAllConnections();
          }),
      ]);
      await built.close();
    },
  };
}
