/**
 * The worker's moving parts, built from explicit dependencies so that the
 * entry file and the tests start the same thing: the commit worker, the
 * render worker and a periodic catch-up sweep of unrendered changes.
 */
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import { createWorkerMetrics, type WorkerMetrics } from '../core/metrics.ts';
import {
  COMMIT_QUEUE, CommitJobSchema, REBUILD_JOB, RebuildJobSchema, RENDER_JOB, RENDER_QUEUE, renderJobId, type CommitResult,
} from '../core/queue-contract.ts';
import { createQueue, createWorker, queueBackendOf } from '../core/queues.ts';
import { createAstroRenderer } from '../core/render/astro-renderer.ts';
import { commitOperation } from './jobs/commit.ts';
import { rebuild } from './jobs/rebuild.ts';
import { renderPendingChanges } from './jobs/render.ts';
import { startSearchIndexer } from './search/indexer.ts';

export interface WorkerDeps {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
}

export interface WorkerRuntime {
  metrics: WorkerMetrics;
  /** Renders every unrendered change now (used at start, by the sweep and by tests). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

// Cheap when nothing is pending (one indexed query); bounds how long a lapsed lease waits.
const SWEEP_MS = 10_000;

export async function startWorker({ config, pool, logger }: WorkerDeps): Promise<WorkerRuntime> {
  const renderer = await createAstroRenderer(config.ASTRO_ENTRY, pool);
  const metrics = createWorkerMetrics();
  const backend = queueBackendOf(config);
  const renderQueue = createQueue(backend, RENDER_QUEUE);
  const searchIndex = await startSearchIndexer({ config, logger });
  const renderPass = async () => {
    const stop = metrics.renderLatency.startTimer();
    const pass = await renderPendingChanges(pool, renderer, config.PROJECTIONS_DIR).finally(stop);
    metrics.renderedFiles.inc({ result: 'written' }, pass.written);
    metrics.renderedFiles.inc({ result: 'unchanged' }, pass.unchanged);
    metrics.renderedFiles.inc({ result: 'removed' }, pass.removed);
    if (pass.changes > 0) logger.info(pass, 'rendered');
    // Batched by the indexer: a burst of passes costs one re-index.
    if (pass.written + pass.removed > 0) await searchIndex.request();
    return pass;
  };

  const commitWorker = createWorker(
    backend,
    COMMIT_QUEUE,
    async function processCommit(job): Promise<CommitResult> {
      const data = CommitJobSchema.parse(job.data);
      const started = performance.now();
      const result = await commitOperation(pool, data);
      const seconds = (performance.now() - started) / 1000;
      metrics.commitLatency.observe({ operation: data.operation, result: result.ok ? 'committed' : result.error.code }, seconds);
      if (result.ok && !result.replayed) {
        logger.info({ operation: data.operation, cursor: result.receipt.change_cursor, ms: Math.round(seconds * 1000) }, 'committed');
        // If this add is lost (a crash right here), the sweep renders the change.
        await renderQueue.add(RENDER_JOB, {}, {
          jobId: renderJobId(result.receipt.change_cursor), removeOnComplete: true, removeOnFail: 1000,
        }).catch((error: unknown) => logger.warn({ err: error }, 'render job not queued; the sweep will render'));
      }
      return result;
    },
    config.WORKER_CONCURRENCY,
  );

  const renderWorker = createWorker(
    backend,
    RENDER_QUEUE,
    async function processRender(job) {
      if (job.name !== REBUILD_JOB) return renderPass();
      const target = RebuildJobSchema.parse(job.data);
      const counts = await rebuild(pool, renderer, config.PROJECTIONS_DIR, target, (p) => {
        // Progress is for operators watching the job; losing an update is harmless.
        if (p.done === p.total || p.done % 100 === 0) void job.updateProgress(p).catch(() => {});
      });
      logger.info({ target, ...counts }, 'rebuild finished');
      if (counts.written + counts.removed > 0) await searchIndex.request();
      return counts;
    },
    2,
  );

  for (const worker of [commitWorker, renderWorker]) {
    worker.on('failed', (job, error) => logger.error({ err: error, queue: worker.name, job: job?.id }, 'job failed'));
    worker.on('error', (error) => logger.error({ err: error, queue: worker.name }, 'worker error'));
  }

  const catchUp = async () => {
    await renderPass();
  };
  await catchUp().catch((error: unknown) => logger.error({ err: error }, 'start-up catch-up failed'));
  const sweep = setInterval(() => {
    catchUp().catch((error: unknown) => logger.warn({ err: error }, 'render sweep failed'));
  }, SWEEP_MS);
  sweep.unref();

  return {
    metrics,
    catchUp,
    async close() {
      clearInterval(sweep);
      // Worker.close() waits for active jobs to finish: nothing is cut mid-way.
      await Promise.all([commitWorker.close(), renderWorker.close()]);
      await searchIndex.close();
      await renderQueue.close();
      await renderer.close();
    },
  };
}
