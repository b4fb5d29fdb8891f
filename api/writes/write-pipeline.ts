/**
 * Turns a validated, authorised write into a committed receipt: queue the
 * commit and wait for the worker, whose transaction claims the key in the
 * operation log (or finds it there and replays). The API never writes
 * knowledge records itself.
 *
 * Outcomes: 201 for the request whose job committed; 200 `unchanged` for
 * an edit equal to its base revision (nothing created); 200 `replayed` for
 * every other request with the same key and body; 409 when the body differs;
 * 503 + Retry-After when the commit is not known in time (the client retries
 * with the same key and gets the receipt: nothing is lost or doubled).
 */
import type { EventEmitter } from 'node:events';
import type pg from 'pg';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import { apiError, ApiError } from '../../core/errors.ts';
import { idempotencyMismatch, requestHashOf } from '../../core/idempotency.ts';
import { COMMIT_JOB, commitJobId, type CommitJob, type CommitResult } from '../../core/queue-contract.ts';
import type { PhaseTimer } from '../../infra/metrics.ts';
import type { OperationReceipt } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { findOperation, type OperationRow } from '../../db/queries/operations.ts';
import type { OperationName } from '../../operations/registry.ts';
import { retireOutdatedProjections } from '../../projections/read-your-writes.ts';

export interface WriteRequest {
  operation: OperationName;
  identityId: string;
  credentialId: string;
  scopes: string[];
  idempotencyKey: string;
  targetId?: string;
  body: Record<string, unknown>;
  /** Top-level body fields in which secrets were replaced with the marker (core/redact-secrets.ts). */
  redacted: string[];
  requestId: string;
}

export interface WriteAnswer {
  status: 200 | 201;
  receipt: OperationReceipt;
}

export interface WritePipelineDeps {
  db: Queryable;
  queue: Queue;
  /** Completion events (Redis); null means poll the job's stored state instead. */
  events: QueueEvents | null;
  commitTimeoutMs: number;
  retryAfterSeconds: number;
  /** Times the pipeline's phases (queue_add, commit_wait); see core/metrics.ts. */
  time?: PhaseTimer;
  /**
   * Commits in this process instead of through the queue: the embedded mode,
   * where API and worker share one process and one database session, and a
   * queue hop (add, poll, pick up, complete, poll again) cost most of a write.
   */
  commitHere?: (job: CommitJob) => Promise<CommitResult>;
}

export type SubmitWrite = (request: WriteRequest) => Promise<WriteAnswer>;

function fromLog(row: OperationRow, requestHash: string): WriteAnswer {
  if (row.request_hash !== requestHash) throw new ApiError(idempotencyMismatch());
  return { status: 200, receipt: { ...row.receipt, replayed: true } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Listens for one commit job's outcome; see `watchCommit`. */
interface CommitWatch {
  /** The job's result once it completes; rejects when it fails or is not known `ms` after this call. */
  wait(ms: number): Promise<CommitResult>;
  /** Stops listening (the job was never queued). */
  stop(): void;
}

/**
 * Listens for a commit job's outcome through QueueEvents, from before the job
 * is queued: a job queued after its listeners are on cannot finish unheard,
 * so a new job costs no look-up of its state. Only a job that was there
 * already (a concurrent or repeated request with the same key and body; the
 * queue then emits "duplicated") may have finished before, and only then is
 * its state read, one round trip.
 * Not `Job.waitUntilFinished`: that checks whether the job already finished
 * inside a promise executor, so a Redis error at that moment (the connection
 * dropping right after the add) is an unhandled rejection, which ends the
 * process. Here that check may fail quietly; the events or the timeout decide.
 */
function watchCommit(queue: Queue, queueEvents: QueueEvents, jobId: string): CommitWatch {
  // QueueEvents also emits per-job events ("completed:<id>") its typings do not list.
  const events = queueEvents as unknown as EventEmitter;
  const completed = `completed:${jobId}`;
  const failed = `failed:${jobId}`;
  const duplicated = `duplicated:${jobId}`;
  let timer: NodeJS.Timeout | undefined;
  let resolve!: (result: CommitResult) => void;
  let reject!: (error: Error) => void;
  let settled = false;
  const outcome = new Promise<CommitResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // An outcome may come while the add is still in flight, before `wait` is
  // called (a failed attempt of a duplicate's job): handled here, it is not an
  // unhandled rejection that would end the process; `wait` still sees it.
  outcome.catch(() => {});
  const stop = () => {
    settled = true;
    clearTimeout(timer);
    events.off(completed, onCompleted);
    events.off(failed, onFailed);
    events.off(duplicated, onDuplicated);
  };
  const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => {
    // Every commit job returns a result object; anything else is not an answer.
    if (returnvalue === null || typeof returnvalue !== 'object') return;
    stop();
    resolve(returnvalue as CommitResult);
  };
  const onFailed = ({ failedReason }: { failedReason: string }) => {
    stop();
    reject(new Error(failedReason));
  };
  // The job was there before this request queued it, so it may have finished already.
  // State first, then the result: read the other way round, a job finishing
  // in between would look completed with no result yet.
  const onDuplicated = () => {
    void (async () => {
      const state = await queue.getJobState(jobId);
      // Gone: it failed and was removed (removeOnFail), so no event will come.
      if (state === 'unknown') return onFailed({ failedReason: 'job not found' });
      if (state === 'failed') return onFailed({ failedReason: 'job failed' });
      if (state === 'completed') onCompleted({ returnvalue: (await Job.fromId(queue, jobId))?.returnvalue });
    })().catch(() => {});
  };
  events.on(completed, onCompleted);
  events.on(failed, onFailed);
  events.on(duplicated, onDuplicated);
  return {
    wait(ms) {
      if (!settled) timer = setTimeout(() => onFailed({ failedReason: 'commit not known in time' }), ms);
      return outcome;
    },
    stop,
  };
}

/**
 * Without completion events (the PostgreSQL backend), the job's state is read
 * back from the queue's store, i.e. the database, with a short backoff.
 */
async function pollForCommit(queue: Queue, jobId: string, ms: number): Promise<CommitResult | null> {
  const until = Date.now() + ms;
  for (let delay = 5; Date.now() < until; delay = Math.min(delay * 2, 100)) {
    const current = await queue.getJob(jobId).catch(() => undefined);
    // A completed job has its return value; a failed one has none. Not `failedReason`: the
    // PostgreSQL backend keeps an earlier attempt's on a job its retry completed.
    if (current?.finishedOn) return (current.returnvalue as CommitResult | null | undefined) ?? null;
    await sleep(delay);
  }
  return null;
}

/** The job's result, or null if it did not finish in time or failed. */
function awaitResult(job: Job, watch: CommitWatch | null, deps: WritePipelineDeps): Promise<CommitResult | null> {
  if (!watch) return pollForCommit(deps.queue, job.id!, deps.commitTimeoutMs);
  return watch.wait(deps.commitTimeoutMs).catch(() => null);
}

const untimed: PhaseTimer = (_phase, fn) => fn();

export function createWritePipeline(deps: WritePipelineDeps): SubmitWrite {
  const time = deps.time ?? untimed;
  const unavailable = (why: string) => apiError('commit_pending', { why }, { retryAfter: deps.retryAfterSeconds });

  const lookUp = async (request: WriteRequest) => {
    try {
      return await findOperation(deps.db, request.identityId, request.idempotencyKey);
    } catch {
      throw unavailable('The database is not reachable.');
    }
  };

  return async function submitWrite(request: WriteRequest): Promise<WriteAnswer> {
    const requestHash = requestHashOf(request.operation, request.targetId, request.body);
    // No look-up in the operation log first: the commit job claims the key
    // and answers a replay (or 409) itself, and identical requests share one
    // job, so a round trip per write bought nothing but a faster replay.
    const data: CommitJob = { ...request, requestHash };
    if (deps.commitHere) return answerOf(request, requestHash, await commitHere(deps.commitHere, data, request));
    const jobId = commitJobId(request.identityId, request.credentialId, request.idempotencyKey, requestHash);
    const watch = deps.events ? watchCommit(deps.queue, deps.events, jobId) : null;
    let job: Job;
    try {
      job = await time('queue_add', () =>
        deps.queue.add(COMMIT_JOB, data, {
          jobId,
          attempts: 5,
          backoff: { type: 'exponential', delay: 250 },
          // Finished jobs stay a while so concurrent duplicates read one result;
          // failed ones go, so a retry with the same key and body runs again.
          removeOnComplete: { age: 600 },
          removeOnFail: true,
        }),
      );
    } catch {
      watch?.stop();
      // The queue is away; a write already committed still has its receipt.
      const prior = await lookUp(request);
      if (prior) return fromLog(prior, requestHash);
      throw unavailable('The write queue is not reachable.');
    }

    const result = await time('commit_wait', () => awaitResult(job, watch, deps));
    if (!result) {
      // Timed out or failed: the operation log is the truth.
      const committed = await lookUp(request);
      if (committed) return fromLog(committed, requestHash);
      throw unavailable('The write was queued but not committed in time.');
    }
    return answerOf(request, requestHash, result);
  };

  /** The inline commit; a failure (the database away) is a 503 to retry, as a queue timeout is. */
  async function commitHere(
    commit: (job: CommitJob) => Promise<CommitResult>,
    data: CommitJob,
    _request: WriteRequest,
  ): Promise<CommitResult> {
    try {
      return await time('commit_wait', () => commit(data));
    } catch {
      throw unavailable('The write was not committed: the database did not answer.');
    }
  }

  function answerOf(request: WriteRequest, requestHash: string, result: CommitResult): WriteAnswer {
    if (result.requestHash !== requestHash) throw new ApiError(idempotencyMismatch());
    if (!result.ok) throw new ApiError(result.error);
    const mine = result.requestId === request.requestId && !result.replayed;
    // 201 only when something was created: an edit that changed nothing answers 200 with `unchanged`.
    return { status: mine && !result.receipt.unchanged ? 201 : 200, receipt: { ...result.receipt, replayed: !mine } };
  }
}

/** Records whose receipts carry a revision their projections show. */
const REVISED = new Set(['problem', 'solution']);

/**
 * `submit`, whose receipts are sent only once no process can serve the
 * record's projections at an older revision than the receipt's
 * (projections/read-your-writes.ts): a client that reads its edit back, from
 * any API process or through nginx, sees it.
 */
export function readingYourWrites(
  submit: SubmitWrite,
  pool: pg.Pool,
  projectionsDir: string,
  retryAfterSeconds: number,
): SubmitWrite {
  return async function submitAndRetireOutdated(request) {
    const answer = await submit(request);
    const { type, id, revision } = answer.receipt.resource;
    if (revision !== null && REVISED.has(type)) {
      try {
        await retireOutdatedProjections(pool, projectionsDir, { type: type as 'problem' | 'solution', id }, revision);
      } catch {
        // Committed, but not yet readable everywhere: the client retries with the same key and gets the receipt then.
        throw apiError(
          'commit_pending',
          { why: 'The write was committed but could not be made visible yet.' },
          { retryAfter: retryAfterSeconds },
        );
      }
    }
    return answer;
  };
}
