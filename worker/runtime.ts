/**
 * The worker's moving parts, built from explicit dependencies so that the
 * entry file and the tests start the same thing: the commit worker, the
 * render worker and a periodic catch-up sweep of unrendered changes.
 */
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import {
  COMMIT_QUEUE, CommitJobSchema, RENDER_JOB, RENDER_QUEUE, renderJobId, type CommitResult,
} from '../core/queue-contract.ts';
import { createAstroRenderer } from '../core/render/astro-renderer.ts';
import { commitOperation } from './jobs/commit.ts';
import { renderPendingChanges } from './jobs/render.ts';
import { startSearchIndexer } from './search/indexer.ts';

export interface WorkerDeps {
  config: Config;
  pool: pg.Pool;
  connection: ConnectionOptions;
  logger: Logger;
}

export interface WorkerRuntime {
  /** Renders every unrendered change now (used at start, by the sweep and by tests). */
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

const SWEEP_MS = 30_000;

export async function startWorker({ config, pool, connection, logger }: WorkerDeps): Promise<WorkerRuntime> {
  const renderer = await createAstroRenderer(config.ASTRO_ENTRY, pool);
  const prefix = config.QUEUE_PREFIX;
  const renderQueue = new Queue(RENDER_QUEUE, { connection, prefix });
  const searchIndex = await startSearchIndexer({ config, connection, logger });
  const renderPass = async () => {
    const pass = await renderPendingChanges(pool, renderer, config.PROJECTIONS_DIR);
    // Batched by the indexer: a burst of passes costs one re-index.
    if (pass.written + pass.removed > 0) await searchIndex.request();
    return pass;
  };

  const commitWorker = new Worker(
    COMMIT_QUEUE,
    async function processCommit(job): Promise<CommitResult> {
      const data = CommitJobSchema.parse(job.data);
      const started = performance.now();
      const result = await commitOperation(pool, data);
      if (result.ok && !result.replayed) {
        logger.info({ operation: data.operation, cursor: result.receipt.change_cursor,
          ms: Math.round(performance.now() - started) }, 'committed');
        // If this add is lost (a crash right here), the sweep renders the change.
        await renderQueue.add(RENDER_JOB, {}, {
          jobId: renderJobId(result.receipt.change_cursor), removeOnComplete: true, removeOnFail: 1000,
        }).catch((error: unknown) => logger.warn({ err: error }, 'render job not queued; the sweep will render'));
      }
      return result;
    },
    { connection, prefix, concurrency: config.WORKER_CONCURRENCY },
  );

  const renderWorker = new Worker(
    RENDER_QUEUE,
    async function processRender() {
      const pass = await renderPass();
      if (pass.changes > 0) logger.info(pass, 'rendered');
      return pass;
    },
    { connection, prefix, concurrency: 2 },
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
