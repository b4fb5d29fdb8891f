/**
 * What every job of the worker's table (table.ts) is given: the process's
 * dependencies, and a way to ask for another job by its name in the table
 * without knowing whether it is queued or run here.
 */
import type pg from 'pg';
import type { Config } from '../../core/config.ts';
import type { QueueName } from '../../core/queue-contract.ts';
import type { ServingFence } from '../../core/serving-fence.ts';
import type { Logger } from '../../infra/logger.ts';
import type { WorkerMetrics } from '../../infra/metrics.ts';
import type { HtmlRenderer } from '../../projections/html.ts';

/** A duty a worker process takes on (WORKER_ROLES names one, or `all` for both). */
export type WorkerRole = Exclude<Config['WORKER_ROLES'], 'all'>;

/** A job in the table: a queue's name for the jobs that come through one, else the name of a task run in process. */
export type JobName = QueueName | 'catch-up' | 'sitemaps' | 'search-champions' | 'search-documents';

export interface JobContext {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  metrics: WorkerMetrics;
  /** The serving fence: commits wait while it stands, pages rendered under it carry its banner. */
  fence: ServingFence;
  /** Loaded where this process renders (the render role); null elsewhere. */
  renderer: HtmlRenderer | null;
  /**
   * Asks for a job as its table entry says: a job added to its queue (awaited
   * unless the entry coalesces its requests), or a run here soon. Never
   * throws: a lost request is made good by the sweep or the next start. A
   * task run in process whose roles this worker lacks is not asked for.
   */
  request(job: JobName): Promise<void>;
  /** Runs a coalesced task now, after the run in flight, when it was asked for or `force`; rejects if that run fails. */
  flush(job: JobName, force?: boolean): Promise<void>;
}
