/** What an operator asks first: are queues draining, are rendering and the search index keeping up, are writes fenced? */
import type { Queue } from 'bullmq';
import type { Queryable } from '../db/pool.ts';
import { readRenderState } from '../db/queries/changes.ts';
import type { FenceStatus } from '../core/serving-fence.ts';
import { readFenceStatus } from '../db/queries/serving-fence.ts';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export interface OperatorStatus {
  queues: Record<string, Record<string, number>>;
  render: { last_committed_cursor: string; last_rendered_cursor: string; unrendered_changes: number; lag_seconds: number };
  /**
   * The static search index is rebuilt by batched runs (worker/search/indexer.ts):
   * its lag is how long the oldest run not yet finished has been waiting, 0 when none is.
   */
  search_index: { pending_runs: number; lag_seconds: number };
  fence: FenceStatus;
}

export interface StatusOptions {
  /** The queue among `queues` whose runs rebuild the search index: it also gives the index lag. */
  searchIndexQueue?: string;
  /** Retry-After a self-fence (read-only database) answers with: RETRY_AFTER_SECONDS. */
  retryAfterSeconds: number;
  now?: number;
}

const seconds = (value: number) => Math.round(value * 10) / 10;

async function readIndexLag(queue: Queue | undefined, now: number): Promise<OperatorStatus['search_index']> {
  if (!queue) return { pending_runs: 0, lag_seconds: 0 };
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
  const oldest = Math.min(...jobs.map((job) => job.timestamp));
  return { pending_runs: jobs.length, lag_seconds: jobs.length ? seconds(Math.max(0, now - oldest) / 1000) : 0 };
}

/** `queues` are every queue the service runs. */
export async function readOperatorStatus(
  db: Queryable, queues: Queue[], { searchIndexQueue, retryAfterSeconds, now = Date.now() }: StatusOptions,
): Promise<OperatorStatus> {
  const depths: Record<string, Record<string, number>> = {};
  for (const queue of queues) depths[queue.name] = await queue.getJobCounts(...STATES);
  const state = await readRenderState(db);
  return {
    queues: depths,
    render: {
      last_committed_cursor: state.last_committed,
      last_rendered_cursor: state.last_rendered,
      unrendered_changes: state.unrendered,
      lag_seconds: seconds(state.oldest_unrendered_seconds),
    },
    search_index: await readIndexLag(queues.find((q) => q.name === searchIndexQueue), now),
    fence: await readFenceStatus(db, retryAfterSeconds),
  };
}
