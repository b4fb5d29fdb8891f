/**
 * What the API and the worker agree on about the queues. The worker parses
 * every payload again: a job can outlive the code that queued it.
 */
import { z } from 'zod';
import type { ErrorInfo } from './errors.ts';
import { ID_PREFIXES, isId } from './ids.ts';
import { sha256Hex } from './hash.ts';
import type { OperationReceipt } from './types.ts';

export const COMMIT_QUEUE = 'commit';
export const RENDER_QUEUE = 'render';
export const COMMIT_JOB = 'commit-operation';
export const RENDER_JOB = 'render-changes';
/** Rebuilds the static Pagefind index from the rendered record pages (static-search/). */
export const SEARCH_INDEX_QUEUE = 'search-index';
export const SEARCH_INDEX_JOB = 'rebuild-search-index';
/** One deduplication id for every index request: at most one run waiting and one running. */
export const SEARCH_INDEX_DEDUPLICATION_ID = 'search-index';
/** Rebuilds the static index's base tier in the background, so index runs never wait for it (static-search/tiers.ts). */
export const SEARCH_COMPACT_QUEUE = 'search-compact';
export const SEARCH_COMPACT_JOB = 'compact-search-index';
/** One deduplication id for every compaction request: one compaction at a time, requests meanwhile dropped (the next run asks again). */
export const SEARCH_COMPACT_DEDUPLICATION_ID = 'search-compact';

/** Every queue: each has exactly one processor in the worker's job table (worker/jobs/table.ts). */
export const QUEUES = [COMMIT_QUEUE, RENDER_QUEUE, SEARCH_INDEX_QUEUE, SEARCH_COMPACT_QUEUE] as const;
export type QueueName = (typeof QUEUES)[number];

export const CommitJobSchema = z.object({
  /** A name in the operation registry (operations/registry.ts); the worker refuses one it does not know. */
  operation: z.string().min(1),
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
  /** Body fields whose secrets the API replaced before queueing; echoed in the receipt. */
  redacted: z.array(z.string()).default([]),
});
export type CommitJob = z.infer<typeof CommitJobSchema>;

/** What a commit job returns: a receipt, or a domain error as a value. */
export type CommitResult =
  | { ok: true; receipt: OperationReceipt; requestHash: string; requestId: string; replayed: boolean }
  | { ok: false; error: ErrorInfo; requestHash: string };

/**
 * One job id per (identity, key, request, credential): identical concurrent
 * requests share a job (the fast path); a different body under the same key
 * gets its own job, which the operations table's primary key then refuses
 * (the guarantee). The credential (or OAuth connection) is part of it because
 * a job's answer can be the refusal of that credential at commit (revoked
 * meanwhile): the same write sent again with the identity's new credential
 * gets a job of its own, which commits it (or replays it), rather than the
 * finished job's refusal. BullMQ ids may not contain ':' nor be all digits.
 */
export function commitJobId(
  identityId: string,
  credentialId: string,
  idempotencyKey: string,
  requestHash: string,
): string {
  return `op-${sha256Hex(`${identityId}\n${idempotencyKey}\n${requestHash}\n${credentialId}`).slice(0, 40)}`;
}

/**
 * One deduplication id for every render request: a render pass renders every
 * unrendered change (the change log, not the job, says what), so at most one
 * pass runs and one waits, however many commits ask meanwhile.
 */
export const RENDER_DEDUPLICATION_ID = 'render-changes';

/** An operator's rebuild, run by a worker on the render queue. */
export const REBUILD_JOB = 'rebuild';
/**
 * Checked by shape wherever a target enters (the endpoint, the CLI, the
 * worker): an id is only ever a record id of its type, never a path.
 */
const REBUILD_TYPES = ['problem', 'solution', 'discussion', 'agent'] as const;
export const RebuildJobSchema = z
  .strictObject({
    type: z.enum(REBUILD_TYPES).optional(),
    id: z.string().min(1).max(64).optional(),
  })
  .superRefine((target, ctx) => {
    if (target.id === undefined) return;
    if (!target.type)
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message: "required when the id's prefix names no record type (prb_, sol_, dsc_, agt_)",
      });
    else if (!isId(target.type, target.id)) {
      ctx.addIssue({
        code: 'invalid_format',
        format: 'regex',
        path: ['id'],
        message: `must be a ${target.type} id (${ID_PREFIXES[target.type]}_ and 26 base32 characters)`,
      });
    }
  });
export type RebuildJob = z.infer<typeof RebuildJobSchema>;

/**
 * A rebuild target as an operator gives it: an id's prefix names its type
 * (`prb_…` is a problem), so `{ id }` alone gets that type before the check.
 * The CLI and the endpoint both pass their input through this.
 */
export function withTypeFromId(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const target = input as Record<string, unknown>;
  if (typeof target.id !== 'string' || target.type !== undefined) return input;
  const id = target.id;
  const type = REBUILD_TYPES.find((kind) => id.startsWith(`${ID_PREFIXES[kind]}_`));
  return type ? { ...target, type } : input;
}
