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
import type { Logger } from '../core/logger.ts';
import { createApiMetrics } from '../core/metrics.ts';
import { COMMIT_QUEUE, RENDER_QUEUE } from '../core/queue-contract.ts';
import { createQueue, createQueueEvents, queueBackendOf } from '../core/queues.ts';
import { redisConnectionOptions } from '../core/redis.ts';
import { createAstroRenderer } from '../core/render/astro-renderer.ts';
import { createApp } from './app.ts';
import { createClientErrorHandler, createRequestErrorHandler } from './client-error.ts';
import { createRateLimiter, postgresCounter, redisCounter, type Counter } from './rate-limit.ts';
import { createWritePipeline } from './write-pipeline.ts';

export interface ApiService {
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startApiService(config: Config, pool: pg.Pool, logger: Logger): Promise<ApiService> {
  const backend = queueBackendOf(config);
  let redis: Redis | null = null;
  let counter: Counter = postgresCounter(pool);
  if (config.REDIS_URL) {
    // Requests must fail fast (503) while Redis is away, not queue up behind it.
    redis = new Redis({ ...redisConnectionOptions(config.REDIS_URL), maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => {});
    counter = redisCounter(redis);
  }
  const queue = createQueue(backend, COMMIT_QUEUE, true);
  const renderQueue = createQueue(backend, RENDER_QUEUE, true);
  const events = await createQueueEvents(backend, COMMIT_QUEUE);
  const renderer = await createAstroRenderer(config.ASTRO_ENTRY, pool);

  const app = createApp({
    config, pool, logger, renderer,
    metrics: createApiMetrics(),
    queues: { commit: queue, render: renderQueue },
    rateLimit: createRateLimiter(counter, config.QUEUE_PREFIX),
    submitWrite: createWritePipeline({
      db: pool, queue, events, commitTimeoutMs: config.COMMIT_TIMEOUT_MS, retryAfterSeconds: config.RETRY_AFTER_SECONDS,
    }),
  });
  // `serve()` without its defaults: requests the parser or the adapter refuse get the Error shape too.
  const server = createServer(getRequestListener(app.fetch, {
    hostname: config.HOST, errorHandler: createRequestErrorHandler(logger),
  }));
  server.on('clientError', createClientErrorHandler(logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    port,
    server,
    async close() {
      // Stop accepting, let in-flight requests finish, then drop connections.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([queue.close(), renderQueue.close(), events?.close(), renderer.close()]);
      redis?.disconnect();
    },
  };
}
