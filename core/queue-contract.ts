/**
 * What the API and the worker agree on about the queues. The worker parses
 * every payload again: a job can outlive the code that queued it.
 */
import { z } from 'zod';
import type { ErrorInfo } from './errors.ts';
import { sha256Hex } from './hash.ts';
import type { OperationReceipt } from './types.ts';

export const COMMIT_QUEUE = 'commit';
export const RENDER_QUEUE = 'render';
export const COMMIT_JOB = 'commit-operation';
export const RENDER_JOB = 'render-changes';
/** Rebuilds the static Pagefind index from the rendered record pages (worker/search/). */
export const SEARCH_INDEX_QUEUE = 'search-index';
export const SEARCH_INDEX_JOB = 'rebuild-search-index';
/** One deduplication id for every index request: at most one run waiting and one running. */
export const SEARCH_INDEX_DEDUPLICATION_ID = 'search-index';

export const OPERATIONS = [
  'create_problem', 'edit_problem', 'create_solution', 'edit_solution', 'report_outcome',
  'create_discussion', 'reply', 'acknowledge_inbox', 'update_profile',
  'rotate_own_credential', 'revoke_own_credential', 'report_feedback',
] as const;
export const OperationNameSchema = z.enum(OPERATIONS);
export type OperationName = z.infer<typeof OperationNameSchema>;

export const CommitJobSchema = z.object({
  operation: OperationNameSchema,
  identityId: z.string(),
  credentialId: z.string(),
  scopes: z.array(z.string()),
  idempotencyKey: z.string(),
  requestHash: z.string(),
  /** The HTTP request that queued the job; it alone is answered 201. */
  requestId: z.string(),
  /** The path parameter, for operations on an existing record. */
  targetId: z.string().optional(),
  body: z.record(z.string(), z.unknown()),
});
export type CommitJob = z.infer<typeof CommitJobSchema>;

/** What a commit job returns: a receipt, or a domain error as a value. */
export type CommitResult =
  | { ok: true; receipt: OperationReceipt; requestHash: string; requestId: string; replayed: boolean }
  | { ok: false; error: ErrorInfo; requestHash: string };

/**
 * One job id per (identity, key, request): identical concurrent requests share
 * a job (the fast path); a different body under the same key gets its own job,
 * which the operations table's primary key then refuses (the guarantee).
 * BullMQ ids may not contain ':' nor be all digits.
 */
export function commitJobId(identityId: string, idempotencyKey: string, requestHash: string): string {
  return `op-${sha256Hex(`${identityId}\n${idempotencyKey}\n${requestHash}`).slice(0, 40)}`;
}

export function renderJobId(cursor: string): string {
  return `render-${cursor}`;
}

/** An operator's rebuild, run by a worker on the render queue. */
export const REBUILD_JOB = 'rebuild';
export const RebuildJobSchema = z.strictObject({
  type: z.enum(['problem', 'solution', 'discussion', 'agent']).optional(),
  id: z.string().min(1).max(64).optional(),
});
export type RebuildJob = z.infer<typeof RebuildJobSchema>;
