/**
 * Every job the worker runs, one entry each: what it is called (its queue's
 * name, for jobs that come through one), what runs it (a function in
 * worker/jobs/), when it runs, how many at once, and which worker roles
 * (WORKER_ROLES) run it. worker/runtime.ts reads this table and nothing
 * else: it creates the BullMQ workers, the request queues, the coalesced
 * runs and the timers from it, and closes them in the same generic way.
 * docs/architecture.md ("The worker's jobs") says how to add one.
 *
 * Three schedules:
 * - `on-demand`: a BullMQ queue this worker consumes; jobs are added by the
 *   API, an operator, or another job's `ctx.request(name)` (how, in
 *   `request`);
 * - `coalesced`: a task run in process, asked for by other jobs; requests
 *   made while a run waits or runs cost nothing, and runs start at most once
 *   per `intervalMs` (coalesced-run.ts);
 * - `repeating`: a task run in process every `everyMs`, and once at start.
 */
import type { Processor, Queue } from 'bullmq';
import type { Config } from '../../core/config.ts';
import {
  COMMIT_QUEUE,
  RENDER_QUEUE,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_QUEUE,
  type QueueName,
} from '../../core/queue-contract.ts';
import { processCommit } from './commit-job.ts';
import type { JobContext, JobName, WorkerRole } from './context.ts';
import { catchUp, processRender, queueRenderPass, renderPass } from './render-job.ts';
import {
  processSearchCompaction,
  processSearchIndex,
  queueSearchCompaction,
  queueSearchIndexRun,
} from './search-index.ts';
import { championTask, searchDocumentTask, sitemapTask, type InProcessTask } from './upkeep.ts';

interface JobEntryBase {
  name: JobName;
  /** The roles whose workers run it: `all` runs every entry. */
  roles: readonly WorkerRole[];
}

export interface OnDemandJob extends JobEntryBase {
  /** Its queue (core/queue-contract.ts): every queue has exactly one entry. */
  name: QueueName;
  schedule: 'on-demand';
  concurrency(config: Config): number;
  processor(ctx: JobContext): Processor;
  /**
   * How another job's request adds one (absent: only the API or an operator
   * adds them). `coalesced`: one add in flight at a time, not waited for by
   * the requester; otherwise each request is one add, waited for. A failed
   * add is logged with `failure` and dropped. `intervalMs` (coalesced only): adds start at most this often.
   */
  request?: {
    add(queue: Queue, ctx: JobContext): Promise<unknown>;
    coalesced: boolean;
    intervalMs?: number;
    failure: string;
  };
  /** Asked for once by every worker of its roles at start: what a request lost in a crash, or a first start, needs. */
  requestAtStart?: boolean;
  /**
   * Where writes commit in the request (the embedded mode, WorkerDeps.commitQueue false):
   * `skip` leaves the queue unconsumed (its jobs are called in process, WorkerRuntime.commit);
   * `run` runs each request here, coalesced, instead of adding a job.
   */
  inProcess?: 'skip' | { run(ctx: JobContext): Promise<unknown>; failure: string };
}

export interface CoalescedJob extends JobEntryBase {
  schedule: 'coalesced';
  intervalMs: number;
  open(ctx: JobContext): InProcessTask;
  /** Logged with a failed run's error; the next request or sweep runs it again. */
  failure: string;
  /** Also asked for once at start and then every this many ms: what earlier processes noted, or a failed run left. */
  sweepMs?: number;
  /** Run at shutdown when it was asked for; logged with the error if that fails (the next start catches up). */
  flushAtClose?: string;
}

export interface RepeatingJob extends JobEntryBase {
  schedule: 'repeating';
  everyMs: number;
  run(ctx: JobContext): Promise<void>;
  /** Logged (warn) with a failed run's error. */
  failure: string;
  /** The first run, before the worker reports itself started: logged (error) with its error. */
  startFailure: string;
}

export type JobEntry = OnDemandJob | CoalescedJob | RepeatingJob;

// Cheap when nothing is pending (one indexed query); bounds how long a lapsed lease waits.
const SWEEP_MS = 10_000;

export const JOBS: readonly JobEntry[] = [
  {
    name: COMMIT_QUEUE,
    schedule: 'on-demand',
    // Commits wait on queries, not on this event loop: many at once.
    concurrency: (config) => config.WORKER_CONCURRENCY,
    roles: ['commit'],
    processor: processCommit,
    inProcess: 'skip',
  },
  {
    name: RENDER_QUEUE,
    schedule: 'on-demand',
    // A render pass and an operator's rebuild side by side; two passes meet at the change leases.
    concurrency: () => 2,
    // Rendering is CPU-bound on this event loop: a render role keeps it away from commits' queries.
    roles: ['render'],
    processor: processRender,
    request: {
      add: queueRenderPass,
      coalesced: true,
      // Passes start at most every PASS_SPACING_MS (200 ms): under a stream of commits, an add per batch was a Redis
      // script per batch that found a pass already waiting. A request after a quiet spell is added at once.
      intervalMs: 100,
      failure: 'render job not queued; the sweep will render',
    },
    inProcess: { run: renderPass, failure: 'render pass failed; the sweep will render' },
  },
  {
    name: SEARCH_INDEX_QUEUE,
    schedule: 'on-demand',
    // One run at a time across every worker (the deduplication id); one here.
    concurrency: () => 1,
    roles: ['render'],
    processor: processSearchIndex,
    request: { add: queueSearchIndexRun, coalesced: false, failure: 'search index request not queued' },
    // An index never built, or a request lost between a render and its enqueue (a crash).
    requestAtStart: true,
  },
  {
    name: SEARCH_COMPACT_QUEUE,
    schedule: 'on-demand',
    concurrency: () => 1,
    roles: ['render'],
    processor: processSearchCompaction,
    request: { add: queueSearchCompaction, coalesced: false, failure: 'search index compaction not queued' },
  },
  {
    name: 'catch-up',
    schedule: 'repeating',
    everyMs: SWEEP_MS,
    roles: ['render'],
    run: catchUp,
    failure: 'render sweep failed',
    startFailure: 'start-up catch-up failed',
  },
  {
    name: 'sitemaps',
    schedule: 'coalesced',
    // Each update re-lists and re-writes the whole day's chunk of every record kind touched, which per pass was most
    // of a small pass's time under a burst of writes. Crawlers do not notice 2 s.
    intervalMs: 2_000,
    roles: ['render'],
    open: sitemapTask,
    failure: 'sitemap update failed; the next pass or sweep tries again',
    flushAtClose: 'sitemap update failed at shutdown',
  },
  {
    name: 'search-champions',
    schedule: 'coalesced',
    // CHAMPION_COMPACT_AT (db/queries/search.ts) says when a list needs it.
    intervalMs: 2_000,
    roles: ['render'],
    open: championTask,
    failure: 'search champion compaction failed; the next pass or sweep tries again',
  },
  {
    name: 'search-documents',
    schedule: 'coalesced',
    // Under a steady write load a change waits at most this plus a run before search finds it. Much of a run is paid
    // per run (its statements, the families' locks), not per change: at 100 ms a run took a few changes each.
    intervalMs: 250,
    // Where commits are made: that event loop waits on queries, where a render worker's is busy rendering, and search's
    // lag would wait for it.
    roles: ['commit'],
    open: searchDocumentTask,
    failure: 'search catch-up failed; the next pass or sweep tries again',
    sweepMs: SWEEP_MS,
  },
];

/** The roles a worker takes on: WORKER_ROLES, and commits wherever writes commit in process. */
export function rolesOf(workerRoles: Config['WORKER_ROLES'], commitsInProcess: boolean): Set<WorkerRole> {
  const roles = new Set<WorkerRole>(workerRoles === 'all' ? ['commit', 'render'] : [workerRoles]);
  if (commitsInProcess) roles.add('commit');
  return roles;
}

/** The entries a worker with these roles runs. */
export function jobsFor(roles: ReadonlySet<WorkerRole>): JobEntry[] {
  return JOBS.filter((job) => job.roles.some((role) => roles.has(role)));
}

/** Whether a worker takes this entry's jobs from its queue. */
export function consumes(job: JobEntry, commitsInProcess: boolean): job is OnDemandJob {
  return job.schedule === 'on-demand' && !(commitsInProcess && job.inProcess === 'skip');
}

/** The queues a worker with these roles consumes. */
export function consumedQueues(roles: ReadonlySet<WorkerRole>, commitsInProcess: boolean): QueueName[] {
  return jobsFor(roles)
    .filter((job) => consumes(job, commitsInProcess))
    .map((job) => job.name as QueueName);
}
