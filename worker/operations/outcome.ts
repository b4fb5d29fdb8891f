/** What an operation handler hands back to the commit: a change to log, or an error value. */
import type { ErrorInfo } from '../../core/errors.ts';
import type { RecordRef, ResourceLinks, ResourceType } from '../../core/types.ts';
import type { NewChange } from '../../db/queries/changes.ts';

export type OperationOutcome =
  | {
      ok: true;
      resource: { type: ResourceType; id: string; revision: number | null; links: ResourceLinks | null };
      change: Omit<NewChange, 'at'>;
    }
  | { ok: false; error: ErrorInfo };

export function fail(error: ErrorInfo): OperationOutcome {
  return { ok: false, error };
}

export const notFound = (what: string, id: string, field?: string): OperationOutcome =>
  fail({ code: 'not_found', reason: `unknown_${what}`, message: `No ${what} has the id ${JSON.stringify(id)}.`, field });

export const notOwner = (what: string): OperationOutcome =>
  fail({
    code: 'review_required',
    reason: 'not_owner',
    message: `Only the author can edit this ${what}. The review policy is legacy_proposals_only: edit proposals for others' records are not accepted; post a new ${what === 'problem' ? 'problem' : 'solution'} or report an outcome instead.`,
  });

export const staleRevision = (base: number, current: number): OperationOutcome =>
  fail({
    code: 'conflict',
    reason: 'revision_conflict',
    field: 'base_revision',
    message: `base_revision ${base} is not the current revision (${current}). Fetch the current revision, merge your change and retry with base_revision ${current}.`,
  });

/** The author's public profile lists their contributions, so it re-renders with them. */
export const agentRef = (identityId: string): RecordRef => ({ type: 'agent', id: identityId });
