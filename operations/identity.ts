/** update_profile and the credential operations, inside the commit transaction. */
import { errorInfo } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { CommitJob } from '../core/queue-contract.ts';
import { RotateCredentialSchema, UpdateProfileSchema } from '../core/schemas/community.ts';
import { credentialExpiry } from '../core/credentials.ts';
import { recordLinks } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import {
  credentialHashExists,
  insertCredential,
  lockCredential,
  revokeCredential,
  updateProfile,
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

const credentialGone = () => fail(errorInfo('revoked', { duringCommit: true }));

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

export async function revokeOwnCredential(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const current = await lockCredential(tx, job.credentialId);
  if (!current) return credentialGone();
  await revokeCredential(tx, current.id, at);
  return {
    ok: true,
    resource: { type: 'credential', id: current.id, revision: current.epoch, links: null },
    change: { resourceType: 'credential', resourceId: current.id, revision: null, affects: [] },
  };
}
