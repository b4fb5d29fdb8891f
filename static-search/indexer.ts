/**
 * Keeps the static search index up to date, batched.
 *
 * Every render pass that changed files asks for a re-index (`request`). The
 * requests go to one queue under one BullMQ deduplication id, added with a
 * delay and `keepLastIfActive`:
 * - while a run is waiting (its delay not over), further requests join it:
 *   a burst of writes costs one run, and that run reads the files after all
 *   of them were rendered;
 * - while a run is active, it may already have read the files, so a request
 *   is stored and BullMQ creates exactly one follow-up run when the active
 *   one finishes. That hand-over happens inside BullMQ's own finish script,
 *   atomically, so there is no gap in which the last write's request is lost.
 * So at most one run is active and one waiting, across all worker processes.
 */
import type { JobsOptions } from 'bullmq';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import { createQueue, createWorker, queueBackendOf } from '../infra/queues.ts';
import { SEARCH_INDEX_DEDUPLICATION_ID, SEARCH_INDEX_JOB, SEARCH_INDEX_QUEUE } from '../core/queue-contract.ts';
import { updateSearchIndex, type TierRun } from './tiers.ts';

export interface SearchIndexRun extends TierRun {
  ms: number;
}

export interface SearchIndexer {
  /**
   * Asks for a re-index soon. Never throws: a request lost to a Redis outage
   * is made good by the next request or the next worker start.
   */
  request(): Promise<void>;
  close(): Promise<void>;
}

export interface SearchIndexerDeps {
  config: Config;
  logger: Logger;
}

/** How every index request is added: the batching described above lives in these options. */
export function searchIndexJobOptions(delayMs: number): JobsOptions {
  return {
    delay: delayMs,
    deduplication: { id: SEARCH_INDEX_DEDUPLICATION_ID, keepLastIfActive: true },
    attempts: 3,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: true,
    removeOnFail: 100,
  };
}

/** One index run (tiers.ts): the recent tier from the pages rendered since the base, or a new base. */
export async function rebuildSearchIndex(dir: string, compactAt?: number): Promise<SearchIndexRun> {
  const started = performance.now();
  const run = await updateSearchIndex(dir, compactAt);
  return { ...run, ms: Math.round(performance.now() - started) };
}

export async function startSearchIndexer({ config, logger }: SearchIndexerDeps): Promise<SearchIndexer> {
  const backend = queueBackendOf(config);
  const queue = createQueue(backend, SEARCH_INDEX_QUEUE);
  const worker = createWorker(
    backend,
    SEARCH_INDEX_QUEUE,
    async function processSearchIndex(): Promise<SearchIndexRun> {
      const run = await rebuildSearchIndex(config.PROJECTIONS_DIR);
      logger.info(run, 'search index published');
      return run;
    },
    1,
  );
  worker.on('failed', (job, error) => logger.error({ err: error, queue: SEARCH_INDEX_QUEUE, job: job?.id }, 'search index run failed'));
  worker.on('error', (error) => logger.error({ err: error, queue: SEARCH_INDEX_QUEUE }, 'search index worker error'));

  async function request(): Promise<void> {
    await queue.add(SEARCH_INDEX_JOB, {}, searchIndexJobOptions(config.SEARCH_INDEX_DELAY_MS))
      .catch((error: unknown) => logger.warn({ err: error }, 'search index request not queued'));
  }

  // At start: an index never built, or a request lost between a render and
  // its enqueue (a crash), is caught up here.
  await request();
  return {
    request,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
