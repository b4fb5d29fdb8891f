/**
 * The worker's moving parts, built from explicit dependencies so that the
 * entry file and the tests start the same thing: the commit worker, the
 * render worker, a periodic catch-up sweep of unrendered changes, and, where
 * commits are made, the search catch-up that brings the search documents up
 * to date with them (docs/design-writes.md).
 *
 * While the serving fence stands (core/serving-fence.ts) queued writes stay
 * queued: the commit worker puts each job it takes back, delayed by the
 * fence's refresh interval and without spending an attempt, and commits it
 * once the fence is lowered. A write the database refuses as read-only is
 * put back the same way, never failed. Pages rendered under the fence carry
 * its banner; the catch-up sweep renders them again once it is lowered.
 */
import { DelayedError, type Job } from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../infra/logger.ts';
import { createWorkerMetrics, type WorkerMetrics } from '../infra/metrics.ts';
import {
  COMMIT_QUEUE,
  CommitJobSchema,
  REBUILD_JOB,
  RebuildJobSchema,
  RENDER_DEDUPLICATION_ID,
  RENDER_JOB,
  RENDER_QUEUE,
  type CommitJob,
  type CommitResult,
} from '../core/queue-contract.ts';
import { createQueue, createWorker, queueBackendOf } from '../infra/queues.ts';
import { loadHtmlRenderer } from '../projections/html.ts';
import { notePendingRecords } from '../static-search/tiers.ts';
import { createServingFence, FENCE_MAX_AGE_MS, type ServingFence } from '../core/serving-fence.ts';
import { createPool, isReadOnlyError } from '../db/pool.ts';
import { readServingFence } from '../db/queries/serving-fence.ts';
import { CHAMPION_COMPACT_AT, compactSearchChampions, SEARCH_CATCH_UP_BATCH } from '../db/queries/search.ts';
import { catchUpSearchDocumentsBuilt } from '../database-search/search-catch-up.ts';
import { createCoalescedRun } from './coalesced-run.ts';
import { commitOperation } from './jobs/commit.ts';
import { rebuild } from './jobs/rebuild.ts';
import { renderPendingChanges } from './jobs/render.ts';
import { notingFencedPages, renderAfterFence, servingForFiles } from './render/fence-banner.ts';
import { startSearchIndexer } from '../static-search/indexer.ts';
import { resetSitemaps, updateSitemaps } from './sitemap/sitemaps.ts';

export interface WorkerDeps {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  /**
   * Take commit jobs from the commit queue (default). False when the process
   * that accepts writes calls `commit` itself (the embedded mode, one process):
   * then nothing polls the commit queue, and each commit starts a render pass
   * here instead of queueing a render job.
   */
  commitQueue?: boolean;
  /** The serving fence, when this process has one already (the embedded mode shares it with the API). */
  fence?: ServingFence;
}

export interface WorkerRuntime {
  metrics: WorkerMetrics;
  /** Commits one write and has it rendered: what a commit job does. */
  commit(job: CommitJob): Promise<CommitResult>;
  /** Renders every unrendered change now (used at start, by the sweep and by tests). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

// Cheap when nothing is pending (one indexed query); bounds how long a lapsed lease waits.
const SWEEP_MS = 10_000;
/**
 * The sitemap follows the change log on its own cursor, so one update covers
 * any number of render passes; each re-lists and re-writes the whole day's
 * chunk of every record kind touched, which per pass was most of a small
 * pass's time under a burst of writes. Crawlers do not notice 2 s.
 */
const SITEMAP_INTERVAL_MS = 2_000;

/**
 * How often at most the search catch-up starts (each run takes everything noted by then): under a
 * steady write load a change waits at most this plus a run before search finds it.
 */
const SEARCH_CATCH_UP_INTERVAL_MS = 100;

/** How often at most the champion lists are compacted (CHAMPION_COMPACT_AT, db/queries/search.ts, says when). */
const CHAMPION_INTERVAL_MS = 2_000;

/** Puts a commit job back in the queue, to be looked at again once the fence may have changed. */
async function holdWhileFenced(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + FENCE_MAX_AGE_MS, token);
  // Tells BullMQ the job was moved, not failed: no attempt is spent.
  throw new DelayedError();
}

export async function startWorker({
  config,
  pool,
  logger,
  commitQueue = true,
  fence: sharedFence,
}: WorkerDeps): Promise<WorkerRuntime> {
  // WORKER_ROLES splits commits and renders between processes, so that
  // rendering (CPU-bound, on this event loop) never delays a commit's queries.
  const commits = commitQueue && config.WORKER_ROLES !== 'render';
  const renders = config.WORKER_ROLES !== 'commit';
  const fence =
    sharedFence ?? createServingFence(() => readServingFence(pool), { retryAfterSeconds: config.RETRY_AFTER_SECONDS });
  // Files rendered under the operator's fence carry its banner and are noted, to be rendered again after it.
  const serving = servingForFiles(fence);
  const renderer = renders
    ? notingFencedPages(await loadHtmlRenderer(config.ASTRO_ENTRY, serving), pool, serving)
    : null;
  const metrics = createWorkerMetrics();
  const backend = queueBackendOf(config);
  const renderQueue = createQueue(backend, RENDER_QUEUE);
  const searchIndex = renders ? await startSearchIndexer({ config, logger }) : null;
  const sitemaps = createCoalescedRun(
    () => updateSitemaps(pool, config.PROJECTIONS_DIR, config.PUBLIC_ORIGIN),
    SITEMAP_INTERVAL_MS,
    (error) => logger.warn({ err: error }, 'sitemap update failed; the next pass or sweep tries again'),
  );
  // Off the commit transaction: commits only stamp the documents they changed.
  const champions = createCoalescedRun(
    () => compactSearchChampions(pool, CHAMPION_COMPACT_AT),
    CHAMPION_INTERVAL_MS,
    (error) => logger.warn({ err: error }, 'search champion compaction failed; the next pass or sweep tries again'),
  );
  // Search documents follow the commits in batches (db/migrations/000021.sql): each run takes what
  // commits noted since the last, so a burst of commits costs a few set-based refreshes, not one each.
  // Run where commits are made: that event loop waits on queries, where a render worker's is busy
  // rendering, and search's lag would wait for it.
  const indexesSearch = commits || !commitQueue;
  // One session of its own, named, so a catch-up never takes a commit's connection and its server
  // CPU shows apart in pg_stat_activity; the embedded database is served by the one pool it has.
  const searchPool =
    indexesSearch && !config.EMBEDDED_DATABASE ? createPool(config.DATABASE_URL, 1, 'ak-search-catch-up') : pool;
  const searchDocuments = createCoalescedRun(
    async () => {
      for (;;) {
        const noted = await catchUpSearchDocumentsBuilt(searchPool, SEARCH_CATCH_UP_BATCH);
        const now = Date.now();
        for (const at of noted) metrics.searchLag.observe(Math.max(0, now - at) / 1000);
        if (noted.length < SEARCH_CATCH_UP_BATCH) return;
      }
    },
    SEARCH_CATCH_UP_INTERVAL_MS,
    (error) => logger.warn({ err: error }, 'search catch-up failed; the next pass or sweep tries again'),
  );
  const renderPass = async () => {
    if (!renderer) throw new Error('this worker does not render (WORKER_ROLES=commit)');
    const stop = metrics.renderLatency.startTimer();
    const pass = await renderPendingChanges(
      pool,
      renderer,
      config.PROJECTIONS_DIR,
      (committedAt) => {
        const now = Date.now();
        for (const at of committedAt) metrics.commitPhase.observe({ phase: 'render' }, (now - at.getTime()) / 1000);
      },
      (refs) => notePendingRecords(config.PROJECTIONS_DIR, refs),
    ).finally(stop);
    metrics.renderedFiles.inc({ result: 'written' }, pass.written);
    metrics.renderedFiles.inc({ result: 'unchanged' }, pass.unchanged);
    metrics.renderedFiles.inc({ result: 'removed' }, pass.removed);
    if (pass.changes > 0) logger.info(pass, 'rendered');
    // Batched by the indexer: a burst of passes costs one re-index.
    if (pass.written + pass.removed > 0) await searchIndex?.request();
    // Only the day chunks of the records changed since its cursor, at most every SITEMAP_INTERVAL_MS.
    if (pass.changes > 0) sitemaps.request();
    if (pass.changes > 0) champions.request();
    return pass;
  };

  /** One render pass at a time here; commits during a pass ask for one more after it. */
  let localPass: Promise<void> | null = null;
  let passAgain = false;
  const renderSoon = () => {
    if (localPass) {
      passAgain = true;
      return;
    }
    localPass = (async () => {
      do {
        passAgain = false;
        await renderPass().catch((error: unknown) =>
          logger.warn({ err: error }, 'render pass failed; the sweep will render'),
        );
      } while (passAgain);
    })().finally(() => {
      localPass = null;
    });
  };

  /**
   * Render requests, one in flight at a time (createCoalescedRun): commits
   * that finish while one is being queued get one more after it, which
   * covers them all, so a stream of commits costs a Redis round trip per
   * turn instead of one per commit. Not awaited by the commit: the receipt
   * never waited for the render, nor need it wait for asking for it. If a
   * request is lost (a crash right here), the sweep renders the change, as it
   * would if the crash came before the request.
   */
  const renderRequests = createCoalescedRun(
    async () => {
      const enqueued = performance.now();
      await renderQueue.add(
        RENDER_JOB,
        {},
        {
          deduplication: { id: RENDER_DEDUPLICATION_ID, keepLastIfActive: true },
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      );
      metrics.commitPhase.observe({ phase: 'render_enqueue' }, (performance.now() - enqueued) / 1000);
    },
    0,
    (error) => logger.warn({ err: error }, 'render job not queued; the sweep will render'),
  );
  const requestRender = () => (commitQueue ? renderRequests.request() : renderSoon());

  const commit = async (data: CommitJob): Promise<CommitResult> => {
    const started = performance.now();
    const result = await commitOperation(pool, data, { prepared: !config.EMBEDDED_DATABASE });
    const seconds = (performance.now() - started) / 1000;
    metrics.commitPhase.observe({ phase: 'transaction' }, seconds);
    metrics.commitLatency.observe(
      { operation: data.operation, result: result.ok ? 'committed' : result.error.code },
      seconds,
    );
    if (result.ok && !result.replayed) {
      const cursor = result.receipt.change_cursor;
      logger.info({ operation: data.operation, cursor, ms: Math.round(seconds * 1000) }, 'committed');
      // A write that changed nothing (cursor null) has nothing to render.
      if (cursor !== null) requestRender();
      if (cursor !== null) searchDocuments.request();
    }
    return result;
  };

  const commitWorker = commits
    ? createWorker(
        backend,
        COMMIT_QUEUE,
        async function processCommit(job, token): Promise<CommitResult> {
          // Both clocks are this machine's (or NTP-close): the API stamped the job when it queued it.
          metrics.commitPhase.observe({ phase: 'pickup' }, Math.max(0, Date.now() - job.timestamp) / 1000);
          if ((await fence.current()).writes === 'fenced') return holdWhileFenced(job, token);
          const data = CommitJobSchema.parse(job.data);
          try {
            return await commit(data);
          } catch (error) {
            if (!isReadOnlyError(error)) throw error;
            // The database turned read-only before the fence was read again: keep the job, look again.
            fence.invalidate();
            logger.warn({ operation: data.operation }, 'commit refused by a read-only database; the job stays queued');
            return holdWhileFenced(job, token);
          }
        },
        config.WORKER_CONCURRENCY,
      )
    : null;

  const renderWorker = !renders
    ? null
    : createWorker(
        backend,
        RENDER_QUEUE,
        async function processRender(job) {
          if (job.name !== REBUILD_JOB) return renderPass();
          const target = RebuildJobSchema.parse(job.data);
          const counts = await rebuild(pool, renderer!, config.PROJECTIONS_DIR, target, (p) => {
            // Progress is for operators watching the job; losing an update is harmless.
            if (p.done === p.total || p.done % 100 === 0) void job.updateProgress(p).catch(() => {});
          });
          if (!target.type && !target.id) await resetSitemaps(pool, config.PROJECTIONS_DIR, config.PUBLIC_ORIGIN);
          logger.info({ target, ...counts }, 'rebuild finished');
          if (counts.written + counts.removed > 0) await searchIndex?.request();
          return counts;
        },
        2,
      );

  for (const worker of [commitWorker, renderWorker].filter((w) => w !== null)) {
    worker.on('failed', (job, error) => logger.error({ err: error, queue: worker.name, job: job?.id }, 'job failed'));
    worker.on('error', (error) => logger.error({ err: error, queue: worker.name }, 'worker error'));
  }

  const catchUp = async () => {
    if (!renders || !renderer) return;
    await renderPass();
    // Also what a pass's horizon left out, and what a previous process asked for and did not get to.
    await sitemaps.flush(true);
    champions.request();
    const unfenced = await renderAfterFence(pool, renderer, config.PROJECTIONS_DIR, fence);
    if (unfenced > 0) logger.info({ records: unfenced }, 'rendered again without the fence banner');
  };
  await catchUp().catch((error: unknown) => logger.error({ err: error }, 'start-up catch-up failed'));
  // Also what commits before this process started noted, and what a failed catch-up left.
  if (indexesSearch) searchDocuments.request();
  const sweep = setInterval(() => {
    catchUp().catch((error: unknown) => logger.warn({ err: error }, 'render sweep failed'));
    if (indexesSearch) searchDocuments.request();
  }, SWEEP_MS);
  sweep.unref();

  return {
    metrics,
    commit,
    catchUp,
    async close() {
      clearInterval(sweep);
      // Worker.close() waits for active jobs to finish: nothing is cut mid-way.
      await Promise.all([commitWorker?.close(), renderWorker?.close()]);
      await localPass;
      // What the last commits asked for; if it fails, the next start's catch-up renders.
      await renderRequests.flush().catch(() => {});
      await renderRequests.close();
      // What the last passes asked for; if it fails, the next start catches up.
      await sitemaps
        .flush()
        .catch((error: unknown) => logger.warn({ err: error }, 'sitemap update failed at shutdown'));
      await sitemaps.close();
      await champions.close();
      await searchDocuments.close();
      if (searchPool !== pool) await searchPool.end();
      await searchIndex?.close();
      await renderQueue.close();
    },
  };
}
