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
 *
 * A run that finds the recent tier too big (or a full rebuild noted) asks for
 * a compaction on a second queue, one at a time under its own deduplication
 * id; it ends by asking for a run, which takes the new base in. Runs go on
 * meanwhile: a base at 100k pages takes minutes, a run a few tens of ms.
 */
import type { JobsOptions } from 'bullmq';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import { createQueue, createWorker, queueBackendOf } from '../infra/queues.ts';
import {
  SEARCH_COMPACT_DEDUPLICATION_ID,
  SEARCH_COMPACT_JOB,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_DEDUPLICATION_ID,
  SEARCH_INDEX_JOB,
  SEARCH_INDEX_QUEUE,
} from '../core/queue-contract.ts';
import type { BaseBuild } from './base-tier.ts';
import { compactSearchIndex, updateSearchIndex, type TierRun } from './tiers.ts';

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

/** How every compaction request is added: while one is waiting or running, another is dropped (the run after it asks again if still needed). */
export function searchCompactJobOptions(): JobsOptions {
  return {
    deduplication: { id: SEARCH_COMPACT_DEDUPLICATION_ID },
    attempts: 3,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: true,
    removeOnFail: 100,
  };
}

/** One index run (tiers.ts): the recent tier from the pages rendered since the base (and the base itself when there is none). */
export async function rebuildSearchIndex(dir: string, compactAt?: number): Promise<SearchIndexRun> {
  const started = performance.now();
  const run = await updateSearchIndex(dir, compactAt);
  return { ...run, ms: Math.round(performance.now() - started) };
}

export async function startSearchIndexer({ config, logger }: SearchIndexerDeps): Promise<SearchIndexer> {
  const backend = queueBackendOf(config);
  const queue = createQueue(backend, SEARCH_INDEX_QUEUE);
  const compactQueue = createQueue(backend, SEARCH_COMPACT_QUEUE);

  async function request(): Promise<void> {
    await queue
      .add(SEARCH_INDEX_JOB, {}, searchIndexJobOptions(config.SEARCH_INDEX_DELAY_MS))
      .catch((error: unknown) => logger.warn({ err: error }, 'search index request not queued'));
  }

  const worker = createWorker(
    backend,
    SEARCH_INDEX_QUEUE,
    async function processSearchIndex(): Promise<SearchIndexRun> {
      const run = await rebuildSearchIndex(config.PROJECTIONS_DIR);
      logger.info(run, 'search index published');
      // Lost to a Redis outage, the request is made again by the next run that still needs it.
      if (run.compact) {
        await compactQueue
          .add(SEARCH_COMPACT_JOB, {}, searchCompactJobOptions())
          .catch((error: unknown) => logger.warn({ err: error }, 'search index compaction not queued'));
      }
      return run;
    },
    1,
  );
  const compactor = createWorker(
    backend,
    SEARCH_COMPACT_QUEUE,
    async function processSearchCompaction(): Promise<BaseBuild & { ms: number }> {
      const started = performance.now();
      const base = await compactSearchIndex(config.PROJECTIONS_DIR);
      const run = { ...base, ms: Math.round(performance.now() - started) };
      logger.info(run, 'search index base published');
      // The run that takes the new base in (and drops the recent pages it holds).
      await request();
      return run;
    },
    1,
  );
  for (const [w, name] of [
    [worker, SEARCH_INDEX_QUEUE],
    [compactor, SEARCH_COMPACT_QUEUE],
  ] as const) {
    w.on('failed', (job, error) => logger.error({ err: error, queue: name, job: job?.id }, 'search index job failed'));
    w.on('error', (error) => logger.error({ err: error, queue: name }, 'search index worker error'));
  }

  // At start: an index never built, or a request lost between a render and
  // its enqueue (a crash), is caught up here.
  await request();
  return {
    request,
    async close() {
      await Promise.all([worker.close(), compactor.close()]);
      await Promise.all([queue.close(), compactQueue.close()]);
    },
  };
}
