/**
 * update_profile and the credential operations, inside the commit
 * transaction, and the check of the credential or connection every write
 * was queued under.
 */
import { errorInfo, type ErrorInfo } from '../core/errors.ts';
import { isId, newId } from '../core/ids.ts';
import type { CommitJob } from '../core/queue-contract.ts';
import { RotateCredentialSchema, UpdateProfileSchema } from '../core/schemas/community.ts';
import { connectionProblem, credentialExpiry, credentialProblem, refusalAtCommit } from '../core/credentials.ts';
import { recordLinks } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import {
  credentialHashExists,
  insertCredential,
  lockCallers,
  lockCredential,
  revokeCredential,
  updateProfile,
  type CallerRow,
} from '../db/queries/identities.ts';
import { agentRef, fail, type HandlerResult } from './handler-result.ts';

export async function updateOwnProfile(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = UpdateProfileSchema.parse(job.body);
  await updateProfile(tx, job.identityId, body, at);
  const ref = agentRef(job.identityId);
  return {
    ok: true,
    resource: { type: 'agent', id: job.identityId, revision: null, links: recordLinks(ref) },
    change: { resourceType: 'agent', resourceId: job.identityId, revision: null, affects: [ref] },
  };
}

/**
 * The refusal each write meets at commit because of who queued it, or null:
 * the rule the API applied to the request (core/credentials.ts), applied
 * again to the credential or connection as it stands now, so one revoked
 * or expired after the write was queued stops it. One statement for the
 * writes given, which share-locks their rows until the transaction ends
 * (`lockCallers`). A direct credential's id has its own prefix; any other
 * id is an OAuth connection's grant.
 */
export async function refusalsOfCallers(
  tx: Queryable,
  writes: readonly { job: CommitJob; at: Date }[],
  /** Credentials other writes of the transaction end (rotate, revoke): locked for update rather than shared. */
  ended: readonly string[] = [],
): Promise<(ErrorInfo | null)[]> {
  if (writes.length === 0) return [];
  const direct = writes.map(({ job }) => isId('credential', job.credentialId));
  const ids = (want: boolean) => [
    ...new Set(writes.filter((_, i) => direct[i] === want).map(({ job }) => job.credentialId)),
  ];
  const { credentials, connections } = await lockCallers(tx, ids(true), ids(false), [...new Set(ended)]);
  // A write acts as the identity of the credential or connection it was queued under.
  const own = <R extends CallerRow>(job: CommitJob, row: R | undefined) =>
    row?.identity_id === job.identityId ? row : undefined;
  return writes.map(({ job, at }, i) => {
    const problem = direct[i]
      ? credentialProblem(own(job, credentials.get(job.credentialId)), at)
      : connectionProblem(own(job, connections.get(job.credentialId)));
    return problem ? refusalAtCommit(problem) : null;
  });
}

/**
 * Rotation revokes the presented credential and registers the new hash with
 * the same scopes, the next epoch and a fresh 180-day term. The epoch check
 * under the row lock makes a second rotation from the same epoch a 409.
 */
export async function rotateOwnCredential(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = RotateCredentialSchema.parse(job.body);
  const current = await lockCredential(tx, job.credentialId);
  // Revoked since the API authenticated it: a concurrent rotation or revocation won.
  if (!current || current.revoked_at) {
    return fail(errorInfo('unknown_old_epoch', { given: body.epoch, current: null }, { field: 'epoch' }));
  }
  // Expired since the API authenticated it: the rule every write meets at commit; an expired credential renews nothing.
  if (credentialProblem(current, at) === 'expired') return fail(refusalAtCommit('expired'));
  if (body.epoch !== current.epoch) {
    return fail(errorInfo('unknown_old_epoch', { given: body.epoch, current: current.epoch }, { field: 'epoch' }));
  }
  if (await credentialHashExists(tx, body.credential_hash)) {
    return fail(errorInfo('credential_already_registered', undefined, { field: 'credential_hash' }));
  }
  const id = newId('credential', at.getTime());
  await revokeCredential(tx, current.id, at);
  await insertCredential(tx, {
    id,
    identityId: job.identityId,
    hash: body.credential_hash,
    scopes: current.scopes,
    epoch: current.epoch + 1,
    expiresAt: credentialExpiry(at),
  });
  return {
    ok: true,
    resource: { type: 'credential', id, revision: current.epoch + 1, links: null },
    change: { resourceType: 'credential', resourceId: id, revision: null, affects: [] },
  };
}

/** Under the row lock, the rule every other write meets before it runs: a credential ended meanwhile is refused. */
export async function revokeOwnCredential(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const current = await lockCredential(tx, job.credentialId);
  const problem = credentialProblem(current?.identity_id === job.identityId ? current : null, at);
  if (!current || problem) return fail(refusalAtCommit(problem ?? 'invalid'));
  await revokeCredential(tx, current.id, at);
  return {
    ok: true,
    resource: { type: 'credential', id: current.id, revision: current.epoch, links: null },
    change: { resourceType: 'credential', resourceId: current.id, revision: null, affects: [] },
  };
}
