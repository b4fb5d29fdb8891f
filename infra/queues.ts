/**
 * Where the queues live: Redis (the default when REDIS_URL is set) or, in the
 * embedded mode, BullMQ's own PostgreSQL backend on the service's database.
 * Every Queue, Worker and QueueEvents is built here so callers never care.
 */
import {
  assertSchemaCompatibility,
  createPostgresBackend,
  Queue,
  QueueEvents,
  runMigrations,
  SchemaMigrationRequiredError,
  SchemaVersionMismatchError,
  Worker,
  type Processor,
} from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import { coalesceCommandWrites, type RedisLike, redisConnectionOptions } from './redis.ts';

export type QueueBackend =
  | { kind: 'redis'; url: string; prefix: string }
  | { kind: 'postgres'; connectionString: string; drainDelaySeconds: number };

export function queueBackendOf(config: Config): QueueBackend {
  if (config.REDIS_URL) return { kind: 'redis', url: config.REDIS_URL, prefix: config.QUEUE_PREFIX };
  return {
    kind: 'postgres',
    connectionString: config.DATABASE_URL,
    // Workers wake on LISTEN/NOTIFY, which the embedded PGlite socket does not
    // deliver: there they poll, every second. Writes no longer go through a
    // queue there (they commit in the request), so what is polled is operator
    // rebuilds and the search index, which batches for a second anyway; at
    // 50 ms the polls of two queues took turns with every write on PGlite's
    // one session.
    drainDelaySeconds: 1,
  };
}

/** BullMQ keeps its PostgreSQL tables in a schema of their own. */
const PG_SCHEMA = 'bullmq';

function postgresConnection(backend: { connectionString: string }, max: number) {
  return { connectionString: backend.connectionString, schema: PG_SCHEMA, max };
}

/**
 * A queue to add jobs to. `failFast` (for request paths) makes commands fail
 * at once while Redis is away, so the API answers 503 instead of hanging.
 */
export function createQueue(backend: QueueBackend, name: string, failFast = false): Queue {
  const queue =
    backend.kind === 'redis'
      ? new Queue(name, {
          connection: {
            ...redisConnectionOptions(backend.url),
            ...(failFast ? { maxRetriesPerRequest: 1, enableOfflineQueue: false } : {}),
          },
          prefix: backend.prefix,
        })
      : (new Queue(name, { connection: postgresConnection(backend, 4) }, createPostgresBackend) as unknown as Queue);
  queue.on('error', () => {});
  // Every write waiting for its commit holds one listener until it settles.
  queue.setMaxListeners(0);
  return queue;
}

export function createWorker(backend: QueueBackend, name: string, processor: Processor, concurrency: number): Worker {
  if (backend.kind === 'redis') {
    const worker = new Worker(name, processor, {
      connection: redisConnectionOptions(backend.url),
      prefix: backend.prefix,
      concurrency,
    });
    // Jobs that finish together (a commit batch) send their scripts in one write; the blocking connection waits alone.
    worker
      .getBackend()
      .client.then((client) => coalesceCommandWrites(client as unknown as RedisLike))
      .catch(() => {});
    return worker;
  }
  return new Worker(
    name,
    processor,
    {
      connection: postgresConnection(backend, concurrency + 2),
      concurrency,
      drainDelay: backend.drainDelaySeconds,
    },
    createPostgresBackend,
  ) as unknown as Worker;
}

/**
 * Completion events, Redis only: on the PostgreSQL backend they were seen to
 * be lost under load, so there the API asks the database instead.
 */
export async function createQueueEvents(backend: QueueBackend, name: string): Promise<QueueEvents | null> {
  if (backend.kind !== 'redis') return null;
  const events = new QueueEvents(name, { connection: redisConnectionOptions(backend.url), prefix: backend.prefix });
  events.on('error', () => {});
  events.setMaxListeners(0);
  await events.waitUntilReady();
  return events;
}

/** Creates or upgrades BullMQ's own tables when the queues live in PostgreSQL. */
export async function prepareQueueStore(backend: QueueBackend, pool: pg.Pool): Promise<void> {
  if (backend.kind !== 'postgres') return;
  const client = await pool.connect();
  try {
    await runMigrations(client, PG_SCHEMA);
  } finally {
    client.release();
  }
}

/**
 * Refuses to start on a PostgreSQL queue store that `npm run migrate` has not
 * prepared (or prepared for another BullMQ major): BullMQ's workers retry
 * their bootstrap at once, forever, so a worker started first spun a core
 * logging the same error, and writes waited for a commit that never came.
 */
export async function requireQueueStore(backend: QueueBackend, pool: pg.Pool): Promise<void> {
  if (backend.kind !== 'postgres') return;
  const client = await pool.connect();
  try {
    await assertSchemaCompatibility(client, PG_SCHEMA);
  } catch (error) {
    if (error instanceof SchemaMigrationRequiredError || error instanceof SchemaVersionMismatchError)
      throw new QueueStoreNotReadyError(error.message);
    throw error;
  } finally {
    client.release();
  }
}

export class QueueStoreNotReadyError extends Error {
  constructor(detail: string) {
    super(`The queues' tables in PostgreSQL are not ready; run \`npm run migrate\` first. (${detail})`);
  }
}
