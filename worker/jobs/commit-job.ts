/**
 * The commit job around its transaction (commit.ts): the serving fence,
 * the metrics, and the follow-ups a commit asks for.
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
import { commitOperation } from './commit.ts';
import type { JobContext } from './context.ts';

/** Commits one write and asks for its render and search documents: what a commit job does, and the embedded mode's request. */
export async function commitWrite(ctx: JobContext, data: CommitJob): Promise<CommitResult> {
  const { config, pool, logger, metrics } = ctx;
  const started = performance.now();
  const result = await commitOperation(pool, data, { prepared: !config.EMBEDDED_DATABASE });
  const seconds = (performance.now() - started) / 1000;
  metrics.commitPhase.observe({ phase: 'transaction' }, seconds);
  metrics.commitLatency.observe(
    { operation: data.operation, result: result.ok ? 'committed' : result.error.code },
    seconds,
  );
  if (result.ok && !result.replayed) {
    const cursor = result.receipt.change_cursor;
    logger.info({ operation: data.operation, cursor, ms: Math.round(seconds * 1000) }, 'committed');
    // A write that changed nothing (cursor null) has nothing to render. Neither request is waited for:
    // the receipt never waited for the render, nor need it wait for asking for it.
    if (cursor !== null) void ctx.request('render');
    if (cursor !== null) void ctx.request('search-documents');
  }
  return result;
}

/** Puts a commit job back in the queue, to be looked at again once the fence may have changed. */
async function holdWhileFenced(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + FENCE_MAX_AGE_MS, token);
  // Tells BullMQ the job was moved, not failed: no attempt is spent.
  throw new DelayedError();
}

/** The commit queue's processor. */
export function processCommit(ctx: JobContext): Processor<unknown, CommitResult> {
  const { fence, logger, metrics } = ctx;
  return async function processCommit(job, token): Promise<CommitResult> {
    // Both clocks are this machine's (or NTP-close): the API stamped the job when it queued it.
    metrics.commitPhase.observe({ phase: 'pickup' }, Math.max(0, Date.now() - job.timestamp) / 1000);
    if ((await fence.current()).writes === 'fenced') return holdWhileFenced(job, token);
    const data = CommitJobSchema.parse(job.data);
    try {
      return await commitWrite(ctx, data);
    } catch (error) {
      if (!isReadOnlyError(error)) throw error;
      // The database turned read-only before the fence was read again: keep the job, look again.
      fence.invalidate();
      logger.warn({ operation: data.operation }, 'commit refused by a read-only database; the job stays queued');
      return holdWhileFenced(job, token);
    }
  };
}
