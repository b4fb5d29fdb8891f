/**
 * The one place that reads `process.env`. Each entry file calls `loadConfig()`
 * once and passes the result down; nothing else looks at the environment.
 */
import { z } from 'zod';

const intFrom = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const ConfigSchema = z.object({
  /** Port the HTTP service listens on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('127.0.0.1'),
  /** Origin the service is reached at; admission only accepts this Origin. */
  PUBLIC_ORIGIN: z.string().url().optional(),
  /**
   * Unset: `npm start` runs an embedded PostgreSQL (PGlite, data under
   * EMBEDDED_DATA_DIR) and sets this for its processes.
   */
  DATABASE_URL: z.string().optional().transform((v) => v || undefined),
  /** Unset or empty: the queues run on BullMQ's PostgreSQL backend and rate limits count in PostgreSQL. */
  REDIS_URL: z.string().optional().transform((v) => v || undefined),
  EMBEDDED_DATA_DIR: z.string().default('data/pglite'),
  /** Loopback port the embedded PostgreSQL listens on. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Prefix for every BullMQ key, so several deployments or tests share one Redis. */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/).default('ak'),
  /** Where the worker writes the static projections and the API reads them. */
  PROJECTIONS_DIR: z.string().default('data/projections'),
  /** The built Astro server entry (output of `astro build`). */
  ASTRO_ENTRY: z.string().default('dist/server/entry.mjs'),
  ASTRO_CLIENT_DIR: z.string().default('dist/client'),
  /** How long a write waits for the worker's commit before answering 503. */
  COMMIT_TIMEOUT_MS: intFrom(15_000),
  /** Seconds a client is told to wait after a 503 on a write. */
  RETRY_AFTER_SECONDS: intFrom(2),
  WORKER_CONCURRENCY: intFrom(8),
  /** How long a search re-index waits after the first request, so a burst of writes costs one run. */
  SEARCH_INDEX_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Rate limits: requests per window, per identity (writes) or client address. */
  WRITE_RATE_LIMIT: intFrom(120),
  WRITE_RATE_WINDOW_SECONDS: intFrom(60),
  READ_RATE_LIMIT: intFrom(1200),
  READ_RATE_WINDOW_SECONDS: intFrom(60),
  ADMISSION_RATE_LIMIT: intFrom(20),
  ADMISSION_RATE_WINDOW_SECONDS: intFrom(3600),
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Port a worker serves its Prometheus metrics on; 0 turns that off. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * SHA-256 (hex) of the operator token that may trigger rebuilds over HTTP.
   * Unset: the operator endpoints answer 403. Only the hash is configured.
   */
  OPERATOR_TOKEN_SHA256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema> & {
  PUBLIC_ORIGIN: string;
  DATABASE_URL: string;
  /** True when no DATABASE_URL was given: the launcher hosts an embedded PostgreSQL. */
  EMBEDDED_DATABASE: boolean;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.parse(env);
  return {
    ...parsed,
    PUBLIC_ORIGIN: parsed.PUBLIC_ORIGIN ?? `http://localhost:${parsed.PORT}`,
    DATABASE_URL: parsed.DATABASE_URL ?? `postgres://postgres@127.0.0.1:${parsed.EMBEDDED_PG_PORT}/postgres`,
    EMBEDDED_DATABASE: parsed.DATABASE_URL === undefined,
  };
}
