/** What the operator endpoints answer (api/routes/operator.ts, `npm run ops -- status`), for the code and the OpenAPI document alike. */
import { z } from 'zod';
import { RebuildJobSchema } from '../queue-contract.ts';
import { FenceStatusSchema } from './fence.ts';

const count = z.number().int().min(0);
const seconds = z.number().min(0).describe('Seconds, to a tenth.');

/** A BullMQ queue's job counts by state. */
const QueueDepthsSchema = z.object({ waiting: count, active: count, delayed: count, failed: count, completed: count });

/** Runs queued on one queue and how long the oldest not yet finished has waited (0 when none is). */
const RunLagSchema = z.object({ pending_runs: count, lag_seconds: seconds });

export const OperatorStatusSchema = z.object({
  queues: z.record(z.string(), QueueDepthsSchema).describe('Every queue the service runs, by name.'),
  render: z.object({
    last_committed_cursor: z.string(),
    last_rendered_cursor: z.string(),
    unrendered_changes: count,
    lag_seconds: seconds.describe('Age of the oldest committed change not yet rendered.'),
  }),
  search_index: RunLagSchema.extend({
    compaction: RunLagSchema.describe(
      'Compactions of the recent tier into a new base index: at most one runs and one waits.',
    ),
  }).describe('Index runs of the static search (Pagefind) not yet finished.'),
  search_documents: z
    .object({
      pending_changes: count.describe('Committed changes the search documents do not reflect yet.'),
      lag_seconds: seconds.describe(
        'How long the oldest of them has waited; 0 when none. Database search answers from the documents, so this is how far behind the commits it may be.',
      ),
    })
    .describe(
      "The documents of database search, brought up to date off the commit transaction by the render worker's catch-up, in batches.",
    ),
  search_champions: z
    .object({
      built: z.boolean().describe('Whether the lists were ever built (the first compaction builds them).'),
      unfolded_documents: count.describe(
        'Search documents changed since the last compaction: every keyword search reads them directly until the next folds them in.',
      ),
      lag_seconds: seconds.describe(
        'Once enough wait for a compaction to be due, how long the oldest of them has waited, by its last update; 0 before (a quiet service keeps a few waiting, which is not a lag).',
      ),
    })
    .describe(
      'The champion lists of database search (docs/search.md, Storage), compacted by the render worker every few seconds.',
    ),
  fence: FenceStatusSchema,
});
export type OperatorStatus = z.infer<typeof OperatorStatusSchema>;

export const RebuildQueuedSchema = z.object({
  job_id: z.string(),
  status: z.literal('queued'),
  target: RebuildJobSchema,
  status_url: z.string().describe('Where the render queue and lag can be followed.'),
});
