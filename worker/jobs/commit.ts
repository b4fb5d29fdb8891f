/**
 * Commits writes: in one transaction each write's caller is checked again,
 * then the write claims its idempotency key, applies its operation, appends
 * its change and stores its receipt; a batch of writes shares one
 * transaction (`commitBatch`). Domain failures come back as values (and
 * roll back); only unexpected errors throw, so BullMQ retries them.
 */
import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { refusalAtCommit } from '../../core/credentials.ts';
import { errorInfo, type ErrorInfo } from '../../core/errors.ts';
import { idempotencyMismatch } from '../../core/idempotency.ts';
import type { CommitJob, CommitResult } from '../../core/queue-contract.ts';
import type { OperationReceipt } from '../../core/types.ts';
import {
  isConnectionError,
  isReadOnlyError,
  withNamedStatements,
  withTransaction,
  type Queryable,
} from '../../db/pool.ts';
import { appendChange, type NewChange } from '../../db/queries/changes.ts';
import {
  appendChangesAndSaveReceipts,
  claimOperations,
  findOperation,
  saveReceipt,
} from '../../db/queries/operations.ts';
import type { HandlerResult } from '../../operations/handler-result.ts';
import { refusalsOfCallers } from '../../operations/identity.ts';
import { operationNamed, type RegisteredOperation } from '../../operations/registry.ts';

/**
 * PostgreSQL refusals of a value itself (a number out of its column's range,
 * U+0000 in text or jsonb): the same request meets them on every attempt, so
 * they are answered as invalid input instead of retried until the client is
 * told 503 and retries forever.
 */
const REFUSED_VALUES = new Set(['22003', '22021', '22P05']);

/** Carries an error value out of the transaction so that it rolls back. */
class Rollback extends Error {
  readonly error: ErrorInfo;
  constructor(error: ErrorInfo) {
    super(error.message);
    this.error = error;
  }
}

export interface CommitOptions {
  /**
   * Run the transaction's statements named, planned once per session
   * (`withNamedStatements`); not on the embedded database, whose connections
   * share one session.
   */
  prepared?: boolean;
  /**
   * Called before each transaction a write or batch starts (a re-run
   * included), outside it; what it throws fails that attempt's writes
   * untouched. The commit queue's processor reads the serving fence here, so
   * a write that waited for a batch, or is re-run after another's failure,
   * never commits once the fence is up.
   */
  beforeTransaction?: () => Promise<void>;
}

export async function commitOperation(
  pool: pg.Pool,
  job: CommitJob,
  options: CommitOptions = {},
): Promise<CommitResult> {
  const operation = operationNamed(job.operation);
  // Queued by code that knew an operation this code does not: retrying cannot help.
  if (!operation) throw new UnrecoverableError(`unknown operation ${JSON.stringify(job.operation)}`);
  await options.beforeTransaction?.();
  try {
    const [result] = await withTransaction(pool, (client) =>
      applyWrites(options.prepared ? withNamedStatements(client) : client, [job], [operation]),
    );
    return result!;
  } catch (error) {
    if (error instanceof Rollback) return { ok: false, error: error.error, requestHash: job.requestHash };
    if (REFUSED_VALUES.has((error as { code?: string }).code ?? '')) {
      return {
        ok: false,
        requestHash: job.requestHash,
        error: errorInfo('unstorable_value'),
      };
    }
    throw new Error(`commit of ${job.operation} failed`, { cause: error });
  }
}

/** Where a batch stands while its transaction runs: the write being applied, -1 when none is (or several at once). */
interface Progress {
  at: number;
}

/**
 * Writes inside the caller's transaction, in order, each as it is alone:
 * its caller checked, its key claimed, its operation applied, its change
 * appended and its receipt stored. The callers are checked in one
 * statement, the keys claimed in one more, and the common case's changes
 * and receipts stored in one more, so a batch pays three round trips for
 * them whatever it holds. A write whose credential or connection can no
 * longer act (revoked or expired since the API checked it) claims no key
 * and is answered its refusal as a value, leaving the others be; a
 * replay of a key already committed is still answered its receipt. A
 * domain failure throws `Rollback`: the transaction must not commit what
 * the write did before it failed (its claim, first of all); `progress`
 * then names the write that failed. Keys must differ from each other.
 */
async function applyWrites(
  tx: Queryable,
  jobs: readonly CommitJob[],
  operations: readonly RegisteredOperation[],
  progress: Progress = { at: -1 },
): Promise<CommitResult[]> {
  const ats = jobs.map(() => new Date());
  // Writes that end their credential check it themselves, under its row lock.
  const checked = jobs.flatMap((job, i) => (operations[i]!.endsCredential ? [] : [{ i, job, at: ats[i]! }]));
  const ending = jobs.flatMap((job, i) => (operations[i]!.endsCredential ? [job.credentialId] : []));
  const refusals = new Map<number, ErrorInfo>();
  for (const [n, refusal] of (await refusalsOfCallers(tx, checked, ending)).entries())
    if (refusal) refusals.set(checked[n]!.i, refusal);
  // A write after one that ends its credential (rotates, revokes) would meet it ended alone: so it does here,
  // refused before anything runs. Were each rolled back and the batch run again, k such writes would re-run
  // the batch k times; should the ending write fail instead, the batch runs again without it and they pass.
  const ended = new Set<string>();
  for (const [i, job] of jobs.entries()) {
    if (operations[i]!.endsCredential) ended.add(job.credentialId);
    else if (ended.has(job.credentialId) && !refusals.has(i)) refusals.set(i, refusalAtCommit('revoked'));
  }
  const claiming = jobs.flatMap((job, i) => (refusals.has(i) ? [] : [{ i, job }]));
  const claims =
    claiming.length === 0
      ? []
      : await claimOperations(
          tx,
          claiming.map(({ i, job }) => ({
            identityId: job.identityId,
            key: job.idempotencyKey,
            operation: job.operation,
            requestHash: job.requestHash,
            at: ats[i]!,
          })),
        );
  const claimed = jobs.map(() => false);
  for (const [n, { i }] of claiming.entries()) claimed[i] = claims[n]!;
  const results: CommitResult[] = [];
  const pending: { i: number; receipt: OperationReceipt; change: NewChange }[] = [];
  // Outcomes of writes applied together ahead of their turn (an operation's `handleMany`), by index.
  const ahead = new Map<number, HandlerResult>();
  for (const [i, job] of jobs.entries()) {
    progress.at = i;
    const { requestHash } = job;
    const at = ats[i]!;
    const operation = operations[i]!;
    if (!claimed[i]) {
      const prior = await findOperation(tx, job.identityId, job.idempotencyKey);
      const refusal = refusals.get(i);
      if (!prior && refusal) {
        // Nothing of it was done: answered as a value, the transaction goes on with the others.
        results[i] = { ok: false, error: refusal, requestHash };
        continue;
      }
      results[i] =
        prior!.request_hash !== requestHash
          ? { ok: false, error: idempotencyMismatch(), requestHash }
          : {
              ok: true,
              receipt: { ...prior!.receipt, replayed: true },
              requestHash,
              requestId: job.requestId,
              replayed: true,
            };
      continue;
    }
    if (operation.handleMany && !ahead.has(i)) {
      // This write and the claimed writes of the same operation right after it.
      let end = i + 1;
      while (end < jobs.length && claimed[end] && operations[end] === operation) end++;
      // A statement error while several are applied at once is no one write's: progress names none.
      if (end - i > 1) progress.at = -1;
      const many = await operation.handleMany(
        tx,
        jobs.slice(i, end).map((job, n) => ({ job, at: ats[i + n]! })),
      );
      for (const [n, outcome] of many.entries()) ahead.set(i + n, outcome);
      progress.at = i;
    }
    const outcome = ahead.get(i) ?? (await operation.handler(tx, job, at));
    if (!outcome.ok) throw new Rollback(outcome.error);
    const receiptWith = (cursor: string | null): OperationReceipt => ({
      operation: job.operation,
      idempotency_key: job.idempotencyKey,
      status: 'committed',
      replayed: false,
      ...(outcome.change ? {} : { unchanged: true }),
      resource: outcome.resource,
      change_cursor: cursor,
      committed_at: at.toISOString(),
      redacted: job.redacted ?? [],
    });
    const followUps = outcome.followUps ?? [];
    if (outcome.change && followUps.length === 0) {
      // The common case, one change: appended with the receipt after the loop, with the batch's others.
      pending.push({ i, receipt: receiptWith(null), change: { ...outcome.change, ...operation.change, at } });
      continue;
    }
    // An edit that changes nothing logs no change: nothing to render, no cursor.
    const cursor = outcome.change ? await appendChange(tx, { ...outcome.change, ...operation.change, at }) : null;
    for (const followUp of followUps) await appendChange(tx, { ...followUp, at });
    await saveReceipt(tx, job.identityId, job.idempotencyKey, receiptWith(cursor));
    results[i] = { ok: true, receipt: receiptWith(cursor), requestHash, requestId: job.requestId, replayed: false };
  }
  progress.at = -1;
  if (pending.length > 0) {
    const cursors = await appendChangesAndSaveReceipts(
      tx,
      pending.map(({ i, receipt, change }) => ({
        identityId: jobs[i]!.identityId,
        key: jobs[i]!.idempotencyKey,
        change,
        receipt,
      })),
    );
    for (const [n, { i, receipt }] of pending.entries()) {
      const job = jobs[i]!;
      results[i] = {
        ok: true,
        receipt: { ...receipt, change_cursor: cursors[n]! },
        requestHash: job.requestHash,
        requestId: job.requestId,
        replayed: false,
      };
    }
  }
  return results;
}

/** A write's outcome in a batch: its result, or the error its job fails with (and is retried on). */
export type BatchOutcome = PromiseSettledResult<CommitResult>;

const settle = (promises: Promise<CommitResult>[]): Promise<BatchOutcome[]> => Promise.allSettled(promises);

/**
 * Commits several writes in one transaction, in order, each exactly as
 * `commitOperation` would alone (its own key claimed, its own change and
 * receipt): one BEGIN and one COMMIT, and one flush of the log, for the
 * batch. Receipts still follow the commit, which is the batch's.
 *
 * One write's failure never fails the others. A write whose caller can no
 * longer act is refused inside the batch, before it does anything, and
 * the batch goes on. A write that fails in the batch (a domain refusal
 * such as a duplicate, a value PostgreSQL refuses) rolls the whole
 * transaction back, so nothing of it, or of the others, is left; then the
 * others are committed again as a batch, and after them that write alone,
 * where it fails as it would have alone. A failure
 * that is no write's own (the database away or read-only, a failed COMMIT)
 * puts every write alone, each meeting it as it would alone. Every attempt
 * is a transaction of its own and the keys are claimed in it, so a write
 * re-run after a rolled-back or dead attempt commits once.
 */
export async function commitBatch(
  pool: pg.Pool,
  jobs: readonly CommitJob[],
  options: CommitOptions = {},
): Promise<BatchOutcome[]> {
  const alone = () => settle(jobs.map((job) => commitOperation(pool, job, options)));
  const operations = jobs.map((job) => operationNamed(job.operation));
  if (jobs.length < 2 || operations.some((operation) => !operation)) return alone();
  // A key given twice (another body, or a job queued again) is decided after the batch, against what it committed.
  const seen = new Set<string>();
  const repeated = jobs.map((job) => {
    const id = `${job.identityId}\n${job.idempotencyKey}`;
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
  if (repeated.some(Boolean)) {
    const first = await commitBatch(
      pool,
      jobs.filter((_, i) => !repeated[i]),
      options,
    );
    const outcomes: BatchOutcome[] = [];
    for (const [i, job] of jobs.entries())
      outcomes.push(repeated[i] ? (await settle([commitOperation(pool, job, options)]))[0]! : first.shift()!);
    return outcomes;
  }
  const progress: Progress = { at: -1 };
  let failure: unknown;
  try {
    await options.beforeTransaction?.();
    const results = await withTransaction(pool, (client) =>
      applyWrites(
        options.prepared ? withNamedStatements(client) : client,
        jobs,
        operations as RegisteredOperation[],
        progress,
      ),
    );
    return results.map((value) => ({ status: 'fulfilled', value }));
  } catch (error) {
    failure = error;
  }
  const failedAt = progress.at;
  if (failedAt < 0 || isConnectionError(failure) || isReadOnlyError(failure)) return alone();
  const others = jobs.filter((_, i) => i !== failedAt);
  // The others first, then the failed write: it meets what they committed, as it would have in the batch.
  const rest = await commitBatch(pool, others, options);
  const failed = await settle([commitOperation(pool, jobs[failedAt]!, options)]);
  const outcomes = [...rest];
  outcomes.splice(failedAt, 0, failed[0]!);
  return outcomes;
}
