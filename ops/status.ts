/** What an operator asks first: are queues draining, and is rendering keeping up? */
import type { Queue } from 'bullmq';
import type { Queryable } from '../db/pool.ts';
import { readRenderState } from '../db/queries/changes.ts';

export interface OperatorStatus {
  queues: Record<string, Record<string, number>>;
  render: { last_committed_cursor: string; last_rendered_cursor: string; unrendered_changes: number; lag_seconds: number };
}

export async function readOperatorStatus(db: Queryable, queues: Queue[]): Promise<OperatorStatus> {
  const depths: Record<string, Record<string, number>> = {};
  for (const queue of queues) {
    depths[queue.name] = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }
  const state = await readRenderState(db);
  return {
    queues: depths,
    render: {
      last_committed_cursor: state.last_committed,
      last_rendered_cursor: state.last_rendered,
      unrendered_changes: state.unrendered,
      lag_seconds: Math.round(state.oldest_unrendered_seconds * 10) / 10,
    },
  };
}
