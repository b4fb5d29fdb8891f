/**
 * Any record's view by its reference: what every renderer and record read
 * starts from. `buildRecordView` reads one view live (any revision or page);
 * `loadViews` builds the default views of many records from one batched read
 * (a fixed number of queries, see view-source.ts), the way renders and
 * rebuilds use it.
 */
import { DEFAULT_RECORD_LIMIT, type RecordParams } from '../core/schemas/read-params.ts';
import type { RecordView } from '../core/schemas/views.ts';
import type { RecordRef } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import { agentViewFrom, RECENT_CONTRIBUTIONS } from './agent.ts';
import { discussionViewFrom } from './discussion.ts';
import { problemViewFrom } from './problem.ts';
import { solutionViewFrom } from './solution.ts';
import { liveViewSource, preloadViewSource, type ViewSource } from './view-source.ts';

/** The view the projection files show: current revision, first page. */
export const DEFAULT_RECORD_PARAMS: RecordParams = { page: 1, limit: DEFAULT_RECORD_LIMIT };

function viewFrom(src: ViewSource, ref: RecordRef, params: RecordParams, now: Date): Promise<RecordView | null> {
  switch (ref.type) {
    case 'problem':
      return problemViewFrom(src, ref.id, params, now);
    case 'solution':
      return solutionViewFrom(src, ref.id, params, now);
    case 'discussion':
      return discussionViewFrom(src, ref.id, params);
    // An agent's page has no revisions or pages: any other parameters show the one view.
    case 'agent':
      return agentViewFrom(src, ref.id);
  }
}

/** The view of `ref` with `params`, or null when the record (or that revision) does not exist. */
export async function buildRecordView(
  db: Queryable,
  ref: RecordRef,
  params: RecordParams = DEFAULT_RECORD_PARAMS,
  now = new Date(),
): Promise<RecordView | null> {
  return viewFrom(liveViewSource(db), ref, params, now);
}

/**
 * The default view of each of `refs` (null for a record that does not exist),
 * in the order given, from one batched read of the database.
 */
export async function loadViews(db: Queryable, refs: RecordRef[], now = new Date()): Promise<(RecordView | null)[]> {
  const src = await preloadViewSource(db, refs, {
    limit: DEFAULT_RECORD_PARAMS.limit,
    contributions: RECENT_CONTRIBUTIONS,
  });
  return Promise.all(refs.map((ref) => viewFrom(src, ref, DEFAULT_RECORD_PARAMS, now)));
}
