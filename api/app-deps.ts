/** What the HTTP app is built from. The entry file and the tests both provide it. */
import type { Queue } from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import type { ApiMetrics } from '../infra/metrics.ts';
import type { CheckCredential } from './limits/auth-failures.ts';
import type { ServingFence } from '../core/serving-fence.ts';
import type { HtmlRenderer } from '../projections/html.ts';
import type { FileCache } from './reads/projection-cache.ts';
import type { RateLimiter } from './limits/rate-limit.ts';
import type { SubmitWrite } from './writes/write-pipeline.ts';

/** One request's facts, logged and counted (api/http/observability.ts). */
export type RecordRequest = (requestId: string, method: string, route: string, status: number, seconds: number) => void;

export interface AppDeps {
  config: Config;
  pool: pg.Pool;
  /**
   * Sessions opened with the search settings, for searches alone (api/routes/search.ts,
   * `searchWithinLimit`). Unset on the embedded database and where a caller builds the
   * deps without one: searches then run in a transaction that sets them.
   */
  searchPool?: pg.Pool;
  logger: Logger;
  rateLimit: RateLimiter;
  /** The bearer check of every path that needs a credential, failures rate limited per address. */
  authenticate: CheckCredential;
  submitWrite: SubmitWrite;
  /** Renders non-default projections (pinned revisions, other pages) on demand. */
  html: HtmlRenderer;
  metrics: ApiMetrics;
  /** Logs and counts one request (the app's middleware and the pre-router reads share it). */
  recordRequest: RecordRequest;
  /** The default projections in memory, shared by the app's reader and the pre-router reads. */
  projectionFiles: FileCache;
  /** Whether writes are fenced (operator or read-only database), read at most a second old. */
  fence: ServingFence;
  /** The commit, render and search-index queues, for depth metrics, operator jobs and status. */
  queues: { commit: Queue; render: Queue; searchIndex: Queue; searchCompact: Queue };
  /**
   * How the authorization server fetches what it does not serve (Client ID
   * Metadata Documents). Unset in the service: oidc-provider's own fetch,
   * which verifies TLS against the system's CAs and refuses private and
   * loopback addresses. Only tests set it (see ApiOptions.oauthFetch).
   */
  oauthFetch?: typeof fetch;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    /** On /mcp/participate: the caller, authenticated once per HTTP request before any tool runs. */
    toolCaller?: import('./mcp/connection-auth.ts').ToolCaller;
  };
};
