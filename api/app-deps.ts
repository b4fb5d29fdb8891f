/** What the HTTP app is built from. The entry file and the tests both provide it. */
import type { Queue } from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import type { ApiMetrics } from '../core/metrics.ts';
import type { Renderer } from '../core/render/astro-renderer.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { SubmitWrite } from './write-pipeline.ts';

export interface AppDeps {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  rateLimit: RateLimiter;
  submitWrite: SubmitWrite;
  /** Renders non-default projections (pinned revisions, other pages) on demand. */
  renderer: Renderer;
  metrics: ApiMetrics;
  /** The commit and render queues, for depth metrics and operator jobs. */
  queues: { commit: Queue; render: Queue };
}

export type AppEnv = { Variables: { requestId: string } };
