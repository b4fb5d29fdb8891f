/**
 * Commits one write: in a single transaction it claims the idempotency key,
 * applies the operation, appends the change and stores the receipt. Domain
 * failures come back as values (and roll back); only unexpected errors throw,
 * so BullMQ retries them.
 */
import { UnrecoverableError } from 'bullmq';
import type pg from 'pg';
import { errorInfo, type ErrorInfo } from '../../core/errors.ts';
import { idempotencyMismatch } from '../../core/idempotency.ts';
import type { CommitJob, CommitResult } from '../../core/queue-contract.ts';
import type { OperationReceipt } from '../../core/types.ts';
import { withNamedStatements, withTransaction } from '../../db/pool.ts';
import { appendChange } from '../../db/queries/changes.ts';
import { appendChangeAndSaveReceipt, claimOperation, findOperation, saveReceipt } from '../../db/queries/operations.ts';
import { operationNamed } from '../../operations/registry.ts';

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
}

export async function commitOperation(
  pool: pg.Pool,
  job: CommitJob,
  options: CommitOptions = {},
): Promise<CommitResult> {
  const { requestHash } = job;
  const operation = operationNamed(job.operation);
  // Queued by code that knew an operation this code does not: retrying cannot help.
  if (!operation) throw new UnrecoverableError(`unknown operation ${JSON.stringify(job.operation)}`);
  try {
    return await withTransaction(pool, async (client): Promise<CommitResult> => {
      const tx = options.prepared ? withNamedStatements(client) : client;
      const at = new Date();
      const claimed = await claimOperation(tx, {
        identityId: job.identityId,
        key: job.idempotencyKey,
        operation: job.operation,
        requestHash,
        at,
      });
      if (!claimed) {
        const prior = (await findOperation(tx, job.identityId, job.idempotencyKey))!;
        if (prior.request_hash !== requestHash) return { ok: false, error: idempotencyMismatch(), requestHash };
        return {
          ok: true,
          receipt: { ...prior.receipt, replayed: true },
          requestHash,
          requestId: job.requestId,
          replayed: true,
        };
      }
      const outcome = await operation.handler(tx, job, at);
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
      let cursor: string | null;
      if (outcome.change && followUps.length === 0) {
        // The common case, one change: appended with the receipt in one statement, which sets the cursor.
        cursor = await appendChangeAndSaveReceipt(
          tx,
          job.identityId,
          job.idempotencyKey,
          { ...outcome.change, ...operation.change, at },
          receiptWith(null),
        );
      } else {
        // An edit that changes nothing logs no change: nothing to render, no cursor.
        cursor = outcome.change ? await appendChange(tx, { ...outcome.change, ...operation.change, at }) : null;
        for (const followUp of followUps) await appendChange(tx, { ...followUp, at });
        await saveReceipt(tx, job.identityId, job.idempotencyKey, receiptWith(cursor));
      }
      const receipt = receiptWith(cursor);
      return { ok: true, receipt, requestHash, requestId: job.requestId, replayed: false };
    });
  } catch (error) {
    if (error instanceof Rollback) return { ok: false, error: error.error, requestHash };
    if (REFUSED_VALUES.has((error as { code?: string }).code ?? '')) {
      return {
        ok: false,
        requestHash,
        error: errorInfo('unstorable_value'),
      };
    }
    throw new Error(`commit of ${job.operation} failed`, { cause: error });
  }
}
