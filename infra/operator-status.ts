/** What an operator asks first: are queues draining, are rendering and the search indexes keeping up, are writes fenced? */
import type { Queue } from 'bullmq';
import type { Queryable } from '../db/pool.ts';
import { readRenderState } from '../db/queries/changes.ts';
import type { OperatorStatus } from '../core/schemas/operator.ts';
import { readFenceStatus } from '../db/queries/serving-fence.ts';
import { readChampionState, readSearchDocumentsLag } from '../db/queries/search.ts';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export interface StatusOptions {
  /** The queue among `queues` whose runs rebuild the search index: it also gives the index lag. */
  searchIndexQueue?: string;
  /** The queue among `queues` whose jobs compact the recent tier into a new base: its lag is the compaction's. */
  searchCompactQueue?: string;
  /** Retry-After a self-fence (read-only database) answers with: RETRY_AFTER_SECONDS. */
  retryAfterSeconds: number;
  now?: number;
}

const seconds = (value: number) => Math.round(value * 10) / 10;

/** The static search index is kept by batched runs and compactions (worker/jobs/search-index.ts): a queue's lag is how long its oldest unfinished job has waited. */
async function readRunLag(
  queue: Queue | undefined,
  now: number,
): Promise<{ pending_runs: number; lag_seconds: number }> {
  if (!queue) return { pending_runs: 0, lag_seconds: 0 };
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
  const oldest = Math.min(...jobs.map((job) => job.timestamp));
  return { pending_runs: jobs.length, lag_seconds: jobs.length ? seconds(Math.max(0, now - oldest) / 1000) : 0 };
}

async function readChampionStatus(db: Queryable): Promise<OperatorStatus['search_champions']> {
  const state = await readChampionState(db);
  return { built: state.built, unfolded_documents: state.unfolded, lag_seconds: seconds(state.lagSeconds) };
}

async function readSearchDocumentsStatus(db: Queryable): Promise<OperatorStatus['search_documents']> {
  const lag = await readSearchDocumentsLag(db);
  return { pending_changes: lag.pending, lag_seconds: seconds(lag.oldestSeconds) };
}

/** `queues` are every queue the service runs. */
export async function readOperatorStatus(
  db: Queryable,
  queues: Queue[],
  { searchIndexQueue, searchCompactQueue, retryAfterSeconds, now = Date.now() }: StatusOptions,
): Promise<OperatorStatus> {
  const depths: OperatorStatus['queues'] = {};
  for (const queue of queues)
    depths[queue.name] = (await queue.getJobCounts(...STATES)) as OperatorStatus['queues'][string];
  const state = await readRenderState(db);
  return {
    queues: depths,
    render: {
      last_committed_cursor: state.last_committed,
      last_rendered_cursor: state.last_rendered,
      unrendered_changes: state.unrendered,
      lag_seconds: seconds(state.oldest_unrendered_seconds),
    },
    search_index: {
      ...(await readRunLag(
        queues.find((q) => q.name === searchIndexQueue),
        now,
      )),
      compaction: await readRunLag(
        queues.find((q) => q.name === searchCompactQueue),
        now,
      ),
    },
    search_documents: await readSearchDocumentsStatus(db),
    search_champions: await readChampionStatus(db),
    fence: await readFenceStatus(db, retryAfterSeconds),
  };
}
