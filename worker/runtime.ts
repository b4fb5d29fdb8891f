/**
 * The worker's wiring, built from explicit dependencies so that the entry
 * file and the tests start the same thing. What the worker does is the job
 * table (jobs/table.ts); this file only reads it: for each entry its roles
 * take on, it creates a BullMQ worker (on-demand), a coalesced run
 * (coalesced) or a timer (repeating), and answers each job's requests for
 * another as that one's entry says. Closing is as generic: timers stop,
 * BullMQ workers finish their active jobs, the last requests are flushed,
 * then the queues close.
 */
import { getPriority, setPriority } from 'node:os';
import type { Queue, Worker } from 'bullmq';
import type pg from 'pg';
import type { Config } from '../core/config.ts';
import type { CommitJob, CommitResult, QueueName } from '../core/queue-contract.ts';
import { createServingFence, type ServingFence } from '../core/serving-fence.ts';
import { readServingFence } from '../db/queries/serving-fence.ts';
import type { Logger } from '../infra/logger.ts';
import { createWorkerMetrics, type WorkerMetrics } from '../infra/metrics.ts';
import { createQueue, createWorker, queueBackendOf, requireQueueStore } from '../infra/queues.ts';
import { loadHtmlRenderer } from '../projections/html.ts';
import { createCoalescedRun, type CoalescedRun } from './coalesced-run.ts';
import { commitWrite } from './jobs/commit-job.ts';
import type { JobContext, JobName } from './jobs/context.ts';
import { consumes, JOBS, jobsFor, rolesOf, type CoalescedJob } from './jobs/table.ts';
import type { InProcessTask } from './jobs/upkeep.ts';
import { notingFencedPages, servingForFiles } from './render/fence-banner.ts';

export interface WorkerDeps {
  config: Config;
  pool: pg.Pool;
  logger: Logger;
  /**
   * Take commit jobs from the commit queue (default). False when the process
   * that accepts writes calls `commit` itself (the embedded mode, one process):
   * then nothing polls the commit queue, and each commit starts a render pass
   * here instead of queueing a render job (the table's `inProcess`).
   */
  commitQueue?: boolean;
  /** The serving fence, when this process has one already (the embedded mode shares it with the API). */
  fence?: ServingFence;
}

export interface WorkerRuntime {
  metrics: WorkerMetrics;
  /** Commits one write and has it rendered: what a commit job does. */
  commit(job: CommitJob): Promise<CommitResult>;
  /** Renders every unrendered change now: the catch-up sweep, where this worker renders. */
  catchUp(): Promise<void>;
  /** The queues this worker takes jobs from. */
  queues: QueueName[];
  close(): Promise<void>;
}

export async function startWorker({
  config,
  pool,
  logger,
  commitQueue = true,
  fence: sharedFence,
}: WorkerDeps): Promise<WorkerRuntime> {
  const inProcess = !commitQueue;
  const roles = rolesOf(config.WORKER_ROLES, inProcess);
  const jobs = jobsFor(roles);
  const fence =
    sharedFence ?? createServingFence(() => readServingFence(pool), { retryAfterSeconds: config.RETRY_AFTER_SECONDS });
  // Files rendered under the operator's fence carry its banner and are noted, to be rendered again after it.
  const serving = servingForFiles(fence);
  const renderer = roles.has('render')
    ? notingFencedPages(await loadHtmlRenderer(config.ASTRO_ENTRY, serving), pool, serving)
    : null;
  const backend = queueBackendOf(config);
  await requireQueueStore(backend, pool);

  /** Queues to add requested jobs to, opened on first request. */
  const queues = new Map<QueueName, Queue>();
  const queueOf = (name: QueueName) => {
    let queue = queues.get(name);
    if (!queue) queues.set(name, (queue = createQueue(backend, name)));
    return queue;
  };
  /** Each coalesced task, and each on-demand job whose requests are coalesced, by name. */
  const coalesced = new Map<JobName, CoalescedRun>();
  const tasks: InProcessTask[] = [];
  const warn = (message: string) => (error: unknown) => logger.warn({ err: error }, message);

  const ctx: JobContext = {
    config,
    pool,
    logger,
    metrics: createWorkerMetrics(),
    fence,
    renderer,
    async request(name) {
      const run = coalesced.get(name);
      if (run) return run.request();
      // Added to its queue whichever roles consume it; a task run in process without a run here is not this worker's.
      const job = JOBS.find((j) => j.name === name);
      if (job?.schedule !== 'on-demand' || !job.request) return;
      await job.request.add(queueOf(job.name), ctx).catch(warn(job.request.failure));
    },
    async flush(name, force) {
      await coalesced.get(name)?.flush(force);
    },
  };

  /** On-demand jobs whose requests are coalesced: flushed at close before the tasks they may ask for. */
  const requestRuns: { run: CoalescedRun; failure: string }[] = [];
  for (const job of JOBS) {
    if (job.schedule !== 'on-demand' || !job.request) continue;
    const { add, failure } = job.request;
    const here = inProcess && typeof job.inProcess === 'object' ? job.inProcess : null;
    if (!here && !job.request.coalesced) continue;
    const requests = here
      ? createCoalescedRun(() => here.run(ctx), 0, warn(here.failure))
      : createCoalescedRun(() => add(queueOf(job.name), ctx), job.request.intervalMs ?? 0, warn(failure));
    coalesced.set(job.name, requests);
    requestRuns.push({ run: requests, failure: here?.failure ?? failure });
  }
  for (const job of jobs) {
    if (job.schedule !== 'coalesced') continue;
    const task = job.open(ctx);
    tasks.push(task);
    coalesced.set(
      job.name,
      createCoalescedRun(() => task.run(), job.intervalMs, warn(job.failure)),
    );
  }

  const workers: Worker[] = [];
  const consumed: QueueName[] = [];
  for (const job of jobs) {
    if (!consumes(job, inProcess)) continue;
    consumed.push(job.name);
    const worker = createWorker(backend, job.name, job.processor(ctx), job.concurrency(config));
    worker.on('failed', (j, error) => logger.error({ err: error, queue: job.name, job: j?.id }, 'job failed'));
    worker.on('error', (error) => logger.error({ err: error, queue: job.name }, 'worker error'));
    workers.push(worker);
  }

  // At start, in table order: requests a previous process may have lost, and the first sweep.
  const timers: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    if (job.schedule === 'on-demand' && job.requestAtStart) await ctx.request(job.name);
    if (job.schedule === 'coalesced' && job.sweepMs) {
      void ctx.request(job.name);
      timers.push(setInterval(() => void ctx.request(job.name), job.sweepMs));
    }
    if (job.schedule === 'repeating') {
      await job.run(ctx).catch((error: unknown) => logger.error({ err: error }, job.startFailure));
      timers.push(setInterval(() => job.run(ctx).catch(warn(job.failure)), job.everyMs));
    }
  }
  for (const timer of timers) timer.unref();

  const repeating = jobs.filter((job) => job.schedule === 'repeating');
  const flushedAtClose = jobs.filter((job): job is CoalescedJob => job.schedule === 'coalesced' && !!job.flushAtClose);

  return {
    metrics: ctx.metrics,
    commit: (data) => commitWrite(ctx, data),
    async catchUp() {
      for (const job of repeating) await job.run(ctx);
    },
    queues: consumed,
    async close() {
      for (const timer of timers) clearInterval(timer);
      // Worker.close() waits for active jobs to finish: nothing is cut mid-way.
      await Promise.all(workers.map((worker) => worker.close()));
      // What the last jobs asked for; if it fails, the next start's catch-up does it.
      for (const { run, failure } of requestRuns) await run.flush().catch(warn(failure));
      for (const job of flushedAtClose) await coalesced.get(job.name)?.flush().catch(warn(job.flushAtClose!));
      for (const run of coalesced.values()) await run.close();
      for (const task of tasks) await task.close?.();
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}

/**
 * Lowers this process's scheduling priority to `nice` (never raises it: an
 * operator's lower one stays). A system that refuses is logged, not fatal.
 */
export function lowerPriority(nice: number, logger: Logger): void {
  try {
    if (getPriority() < nice) setPriority(nice);
  } catch (error) {
    logger.warn({ err: error, nice }, 'could not lower the render worker priority');
  }
}
