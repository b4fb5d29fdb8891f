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
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  /** Unset or empty: the queues run on BullMQ's PostgreSQL backend and rate limits count in PostgreSQL. */
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  EMBEDDED_DATA_DIR: z.string().default('data/pglite'),
  /** Loopback port the embedded PostgreSQL listens on. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Prefix for every BullMQ key, so several deployments or tests share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('ak'),
  /** Where the worker writes the static projections and the API reads them. */
  PROJECTIONS_DIR: z.string().default('data/projections'),
  /** The built Astro server entry (output of `astro build`). */
  ASTRO_ENTRY: z.string().default('dist/server/entry.mjs'),
  ASTRO_CLIENT_DIR: z.string().default('dist/client'),
  /** Bytes of default projections the API keeps in memory (api/reads/projection-cache.ts). */
  PROJECTION_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /** How long a write waits for the worker's commit before answering 503. */
  COMMIT_TIMEOUT_MS: intFrom(15_000),
  /** Seconds a client is told to wait after a 503 on a write. */
  RETRY_AFTER_SECONDS: intFrom(2),
  WORKER_CONCURRENCY: intFrom(8),
  /**
   * What a worker process does: `all`, or only `commit` jobs, or only
   * `render` (render jobs, the catch-up sweep, the search index). Run a
   * commit worker and a render worker so renders never slow commits down.
   */
  WORKER_ROLES: z.enum(['all', 'commit', 'render']).default('all'),
  /**
   * The scheduling priority (nice, 0–19) a `render` worker lowers itself to:
   * where it shares cores with the API and the commits, a receipt waits for
   * CPU behind no render, and renders, which follow in batches, take what is
   * left. 0 keeps the default priority.
   */
  RENDER_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** How long a search re-index waits after the first request, so a burst of writes costs one run. */
  SEARCH_INDEX_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /**
   * Pages per shard of the static search's base tier: each shard is its own
   * Pagefind index, built by its own Pagefind service one after another, so a
   * compaction's memory follows this number, not the corpus (Pagefind's
   * service holds its whole index in memory: 3.4–4.1 GiB at 100k pages).
   * The browser merges the shards, so fewer, larger shards load fewer files.
   */
  SEARCH_SHARD_PAGES: z.coerce.number().int().min(1).default(100_000),
  /** Rate limits: requests per window, per identity (writes) or client address. */
  WRITE_RATE_LIMIT: intFrom(120),
  WRITE_RATE_WINDOW_SECONDS: intFrom(60),
  READ_RATE_LIMIT: intFrom(1200),
  READ_RATE_WINDOW_SECONDS: intFrom(60),
  ADMISSION_RATE_LIMIT: intFrom(20),
  ADMISSION_RATE_WINDOW_SECONDS: intFrom(3600),
  /** Passkey ceremonies (each options or verify request) per client key per window. */
  PASSKEY_CEREMONY_RATE_LIMIT: intFrom(60),
  PASSKEY_CEREMONY_RATE_WINDOW_SECONDS: intFrom(3600),
  /** OAuth dynamic client registrations per client key per window, and the largest metadata accepted. */
  CLIENT_REGISTRATION_RATE_LIMIT: intFrom(20),
  CLIENT_REGISTRATION_RATE_WINDOW_SECONDS: intFrom(3600),
  CLIENT_REGISTRATION_MAX_BYTES: intFrom(8192),
  /** A registered client that no account has connected within this many seconds is removed. */
  CLIENT_UNUSED_TTL_SECONDS: intFrom(24 * 60 * 60),
  /** How often an API process adds its local rate-limit counts to the shared store (api/limits/local-counter.ts). */
  RATE_LIMIT_SYNC_MS: intFrom(200),
  /** Failed credential checks allowed per client address per window, then 429 (valid credentials are unaffected). */
  AUTH_FAILURE_LIMIT: intFrom(30),
  AUTH_FAILURE_WINDOW_SECONDS: intFrom(300),
  /** How often the PostgreSQL rate-limit counters are swept of expired rows (without Redis). */
  RATE_LIMIT_SWEEP_SECONDS: intFrom(60),
  /**
   * How many proxies in front of the API append to X-Forwarded-For (nginx,
   * a CDN, a load balancer): the client address is the entry that many hops
   * from the right. 0 (the default) believes no header: the peer is the client.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).optional(),
  /** Deprecated: `true` means TRUSTED_PROXY_HOPS=1. */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Tool protocol: JSON-RPC messages per batch, and bytes of tool results per HTTP request. */
  MCP_MAX_BATCH: intFrom(20),
  MCP_MAX_ANSWER_BYTES: intFrom(8 * 1_048_576),
  /**
   * Tool protocol answers spend the address's read budget by size: one read
   * per this many bytes answered (a record read is a few KiB: one read), so
   * a small request that returns megabytes pays for them.
   */
  MCP_READ_UNIT_BYTES: intFrom(16_384),
  /** Slow clients: time to send the headers, the whole request, and an idle keep-alive connection's life. */
  HTTP_HEADERS_TIMEOUT_MS: intFrom(10_000),
  HTTP_REQUEST_TIMEOUT_MS: intFrom(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: intFrom(5_000),
  /** Open connections per API process; past it a new connection gets 503 and is closed. */
  HTTP_MAX_CONNECTIONS: intFrom(1024),
  /**
   * Open connections per client address (an IPv6 /64 is one client) per API
   * process, so that one client cannot take the whole cap. Counted on the
   * socket's peer, so only with TRUSTED_PROXY_HOPS=0: behind a proxy every
   * peer is the proxy, which limits its clients itself (nginx `limit_conn`).
   */
  HTTP_MAX_CONNECTIONS_PER_CLIENT: intFrom(64),
  /**
   * How long a process may take to stop after SIGTERM/SIGINT: requests and
   * jobs still running then are cut (a write is replayed by its client with
   * the same key; a job is retried once its lock lapses) and it exits.
   * `npm start` stops children still running at the end of it.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).default(10_000),
  /** `npm start` restarts a crashed child after a backoff doubling from this, at most this many times a minute. */
  RESTART_BACKOFF_MS: intFrom(500),
  RESTART_MAX_PER_MINUTE: intFrom(5),
  /** Port the API serves /metrics on without a token (keep it private); 0 turns that off. */
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Port a worker serves its Prometheus metrics on; 0 turns that off. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** What the container HEALTHCHECK fetches (cli/healthcheck.ts); unset: the API index on PORT. */
  HEALTHCHECK_URL: z.string().url().optional(),
  /**
   * SHA-256 (hex) of the operator token that may trigger rebuilds over HTTP.
   * Unset: the operator endpoints answer 403. Only the hash is configured.
   */
  OPERATOR_TOKEN_SHA256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /**
   * Signs the OAuth server's short-lived interaction cookies. Unset: a random
   * key per process, so with several API processes set the same value on all.
   */
  OAUTH_COOKIE_SECRET: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.infer<typeof ConfigSchema>, 'TRUSTED_PROXY_HOPS'> & {
  TRUSTED_PROXY_HOPS: number;
  PUBLIC_ORIGIN: string;
  DATABASE_URL: string;
  /** True when no DATABASE_URL was given: the launcher hosts an embedded PostgreSQL. */
  EMBEDDED_DATABASE: boolean;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.parse(env);
  return {
    ...parsed,
    TRUSTED_PROXY_HOPS: parsed.TRUSTED_PROXY_HOPS ?? (parsed.TRUST_PROXY ? 1 : 0),
    PUBLIC_ORIGIN: parsed.PUBLIC_ORIGIN ?? `http://localhost:${parsed.PORT}`,
    DATABASE_URL: parsed.DATABASE_URL ?? `postgres://postgres@127.0.0.1:${parsed.EMBEDDED_PG_PORT}/postgres`,
    EMBEDDED_DATABASE: parsed.DATABASE_URL === undefined,
  };
}
