/**
 * Keeps the static search index (static-search/) up to date, batched: the
 * search-index and search-compact jobs of the table (table.ts).
 *
 * Every render pass that changed files asks for a re-index. The requests go
 * to one queue under one BullMQ deduplication id, added with a delay and
 * `keepLastIfActive`:
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
import type { JobsOptions, Processor, Queue } from 'bullmq';
import {
  SEARCH_COMPACT_DEDUPLICATION_ID,
  SEARCH_COMPACT_JOB,
  SEARCH_INDEX_DEDUPLICATION_ID,
  SEARCH_INDEX_JOB,
} from '../../core/queue-contract.ts';
import type { BaseBuild } from '../../static-search/base-tier.ts';
import { compactSearchIndex, rebuildSearchIndex, type SearchIndexRun } from '../../static-search/tiers.ts';
import type { JobContext } from './context.ts';

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

export function queueSearchIndexRun(queue: Queue, { config }: JobContext): Promise<unknown> {
  return queue.add(SEARCH_INDEX_JOB, {}, searchIndexJobOptions(config.SEARCH_INDEX_DELAY_MS));
}

export function queueSearchCompaction(queue: Queue): Promise<unknown> {
  return queue.add(SEARCH_COMPACT_JOB, {}, searchCompactJobOptions());
}

/** The search-index queue's processor: one run (static-search/tiers.ts), and a compaction asked for when it needs one. */
export function processSearchIndex(ctx: JobContext): Processor<unknown, SearchIndexRun> {
  return async function processSearchIndex(): Promise<SearchIndexRun> {
    const run = await rebuildSearchIndex(ctx.config.PROJECTIONS_DIR, { shardPages: ctx.config.SEARCH_SHARD_PAGES });
    ctx.logger.info(run, 'search index published');
    // Lost to a Redis outage, the request is made again by the next run that still needs it.
    if (run.compact) await ctx.request('search-compact');
    return run;
  };
}

/** The search-compact queue's processor: a new base, then the run that takes it in (and drops the recent pages it holds). */
export function processSearchCompaction(ctx: JobContext): Processor<unknown, BaseBuild & { ms: number }> {
  return async function processSearchCompaction(): Promise<BaseBuild & { ms: number }> {
    const started = performance.now();
    const base = await compactSearchIndex(ctx.config.PROJECTIONS_DIR, { shardPages: ctx.config.SEARCH_SHARD_PAGES });
    const run = { ...base, ms: Math.round(performance.now() - started) };
    ctx.logger.info(run, 'search index base published');
    await ctx.request('search-index');
    return run;
  };
}
