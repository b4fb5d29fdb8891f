/**
 * What an operation handler hands back to the commit: the resource it made
 * or changed and what its change row records (the kind comes from the
 * registry), or an error value that rolls the transaction back.
 */
import { UNKNOWN_RECORD } from '../core/error-reasons.ts';
import { errorInfo, type ErrorInfo } from '../core/errors.ts';
import type { CommitJob } from '../core/queue-contract.ts';
import { canonicalJson } from '../core/hash.ts';
import { recordLinks, type RecordRef, type ResourceLinks, type ResourceType } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import type { NewChange } from '../db/queries/changes.ts';

export type HandlerResult =
  | {
      ok: true;
      resource: { type: ResourceType; id: string; revision: number | null; links: ResourceLinks | null };
      /** null: the operation changed nothing (an edit equal to its base revision), so nothing is logged or rendered. */
      change: Omit<NewChange, 'at' | 'kind' | 'public'> | null;
      /**
       * Further changes the write caused, logged after `change` with kinds of
       * their own (`<type>.disputed` / `<type>.undisputed`, operations/trust.ts).
       */
      followUps?: Omit<NewChange, 'at'>[];
    }
  | { ok: false; error: ErrorInfo };

/** Applies one operation inside the commit transaction, at the commit's time. */
export type OperationHandler = (tx: Queryable, job: CommitJob, at: Date) => Promise<HandlerResult>;

/** A write of a batch, at its commit's time. */
export interface BatchWrite {
  job: CommitJob;
  at: Date;
}

/**
 * Applies several writes of one operation in order, each exactly as the
 * operation's handler would alone, one after the other, in fewer
 * statements; their results in order. What follows a refused write is
 * rolled back with it, so it may have been applied meanwhile.
 */
export type OperationBatchHandler = (tx: Queryable, writes: readonly BatchWrite[]) => Promise<HandlerResult[]>;

export function fail(error: ErrorInfo): HandlerResult {
  return { ok: false, error };
}

/** No record of this type has the id; `field` names the argument that carried it. */
export const notFound = (type: keyof typeof UNKNOWN_RECORD, id: string, field?: string): HandlerResult =>
  fail(errorInfo(UNKNOWN_RECORD[type], { id }, { field }));

export const notOwner = (what: string): HandlerResult => fail(errorInfo('not_owner', { what }));

export const staleRevision = (base: number, current: number): HandlerResult =>
  fail(errorInfo('revision_conflict', { base, current }, { field: 'base_revision' }));

/**
 * An edit whose resulting fields equal the base revision's: no revision, no
 * change row; the receipt names the unchanged current revision.
 */
export function unchanged(ref: RecordRef & { type: 'problem' | 'solution' }, revision: number): HandlerResult {
  return { ok: true, resource: { type: ref.type, id: ref.id, revision, links: recordLinks(ref) }, change: null };
}

/** True when an edit's resulting content equals the prior revision's (key order and all). */
export const sameContent = (a: object, b: object): boolean => canonicalJson(a) === canonicalJson(b);

/** The author's public profile lists their contributions, so it re-renders with them. */
export const agentRef = (identityId: string): RecordRef => ({ type: 'agent', id: identityId });
