/**
 * The commit job around its transaction (commit.ts): the serving fence,
 * the batches, the metrics, and the follow-ups a commit asks for.
 *
 * While the serving fence stands (core/serving-fence.ts) queued writes stay
 * queued: the processor puts each job it takes back, delayed by the fence's
 * refresh interval and without spending an attempt, and commits it once the
 * fence is lowered. A write the database refuses as read-only is put back
 * the same way, never failed.
 */
import { DelayedError, type Job, type Processor } from 'bullmq';
import { CommitJobSchema, type CommitJob, type CommitResult } from '../../core/queue-contract.ts';
import { FENCE_MAX_AGE_MS } from '../../core/serving-fence.ts';
import { isReadOnlyError } from '../../db/pool.ts';
import { commitBatch, type BatchOutcome, type CommitOptions } from './commit.ts';
import { createBatcher } from '../commit-batcher.ts';
import type { JobContext } from './context.ts';

/**
 * Commits writes, one or a batch in one transaction (commit.ts), and asks
 * for their render and search documents: what the commit queue's processor
 * does with the jobs it holds, and the embedded mode's request.
 */
export async function commitWrites(
  ctx: JobContext,
  jobs: readonly CommitJob[],
  options: Pick<CommitOptions, 'beforeTransaction'> = {},
): Promise<BatchOutcome[]> {
  const { config, pool, logger, metrics } = ctx;
  const started = performance.now();
  const outcomes = await commitBatch(pool, jobs, { ...options, prepared: !config.EMBEDDED_DATABASE });
  const seconds = (performance.now() - started) / 1000;
  let changed = false;
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status === 'rejected') continue;
    const data = jobs[i]!;
    const result = outcome.value;
    metrics.commitPhase.observe({ phase: 'transaction' }, seconds);
    metrics.commitLatency.observe(
      { operation: data.operation, result: result.ok ? 'committed' : result.error.code },
      seconds,
    );
    if (result.ok && !result.replayed) {
      const cursor = result.receipt.change_cursor;
      logger.info(
        { operation: data.operation, cursor, ms: Math.round(seconds * 1000), batch: jobs.length },
        'committed',
      );
      // A write that changed nothing (cursor null) has nothing to render.
      if (cursor !== null) changed = true;
    }
  }
  // Neither request is waited for: the receipt never waited for the render, nor need it wait for asking for it.
  if (changed) void ctx.request('render');
  if (changed) void ctx.request('search-documents');
  return outcomes;
}

/** Commits one write and asks for its render and search documents. */
export async function commitWrite(ctx: JobContext, data: CommitJob): Promise<CommitResult> {
  const [outcome] = await commitWrites(ctx, [data]);
  if (outcome!.status === 'rejected') throw outcome!.reason;
  return outcome!.value;
}

/** Puts a commit job back in the queue, to be looked at again once the fence may have changed. */
async function holdWhileFenced(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + FENCE_MAX_AGE_MS, token);
  // Tells BullMQ the job was moved, not failed: no attempt is spent.
  throw new DelayedError();
}

/**
 * Commit transactions a worker runs at once. Jobs taken while they run wait
 * and go together into the next (up to `MAX_BATCH`), so under a stream of
 * writes each transaction carries several, and a write that finds a free
 * slot starts at once: batching adds no wait of its own. One: with two, a
 * stream of writes made batches half the size, and each batch pays its
 * BEGIN, claim, receipts and COMMIT whatever it holds; with the cores
 * busy, receipts came no sooner for the second.
 */
export const BATCHES_IN_FLIGHT = 1;
/** The most writes one commit transaction carries. */
export const MAX_BATCH = 32;

/** A write's transaction was not started: the serving fence stands. */
class Fenced extends Error {}

/** The commit queue's processor: every job it holds goes into the next batch (commit-batcher.ts). */
export function processCommit(ctx: JobContext): Processor<unknown, CommitResult> {
  const { fence, logger, metrics } = ctx;
  // Read again before every transaction, not only when the job is taken: a job can wait behind a batch,
  // or be re-run after another write's failure, and the fence may have gone up meanwhile.
  const beforeTransaction = async () => {
    if ((await fence.current()).writes === 'fenced') throw new Fenced('the serving fence stands');
  };
  const batcher = createBatcher<CommitJob, CommitResult>((jobs) => commitWrites(ctx, jobs, { beforeTransaction }), {
    maxBatch: MAX_BATCH,
    inFlight: BATCHES_IN_FLIGHT,
  });
  return async function processCommit(job, token): Promise<CommitResult> {
    // Both clocks are this machine's (or NTP-close): the API stamped the job when it queued it.
    metrics.commitPhase.observe({ phase: 'pickup' }, Math.max(0, Date.now() - job.timestamp) / 1000);
    if ((await fence.current()).writes === 'fenced') return holdWhileFenced(job, token);
    const data = CommitJobSchema.parse(job.data);
    try {
      return await batcher.submit(data);
    } catch (error) {
      if (error instanceof Fenced) return holdWhileFenced(job, token);
      if (!isReadOnlyError(error)) throw error;
      // The database turned read-only before the fence was read again: keep the job, look again.
      fence.invalidate();
      logger.warn({ operation: data.operation }, 'commit refused by a read-only database; the job stays queued');
      return holdWhileFenced(job, token);
    }
  };
}
