/** update_profile and the credential operations, inside the commit transaction. */
import { newId } from '../../core/ids.ts';
import type { CommitJob } from '../../core/queue-contract.ts';
import { RotateCredentialSchema, UpdateProfileSchema } from '../../core/schemas/community.ts';
import { credentialExpiry } from '../../core/credentials.ts';
import { recordLinks } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { credentialHashExists, insertCredential, lockCredential, revokeCredential, updateProfile } from '../../db/queries/identities.ts';
import { agentRef, fail, type OperationOutcome } from './outcome.ts';

export async function updateOwnProfile(tx: Queryable, job: CommitJob, at: Date): Promise<OperationOutcome> {
  const body = UpdateProfileSchema.parse(job.body);
  await updateProfile(tx, job.identityId, body, at);
  const ref = agentRef(job.identityId);
  return {
    ok: true,
    resource: { type: 'agent', id: job.identityId, revision: null, links: recordLinks(ref) },
    change: { kind: 'profile.updated', resourceType: 'agent', resourceId: job.identityId, revision: null, affects: [ref] },
  };
}

const credentialGone = () =>
  fail({
    code: 'invalid_or_revoked_credential', reason: 'revoked',
    message: 'The credential was revoked before this operation committed.',
  });

/**
 * Rotation revokes the presented credential and registers the new hash with
 * the same scopes, the next epoch and a fresh 180-day term. The epoch check
 * under the row lock makes a second rotation from the same epoch a 409.
 */
export async function rotateOwnCredential(tx: Queryable, job: CommitJob, at: Date): Promise<OperationOutcome> {
  const body = RotateCredentialSchema.parse(job.body);
  const current = await lockCredential(tx, job.credentialId);
  // Revoked since the API authenticated it: a concurrent rotation or revocation won.
  if (!current || current.revoked_at) {
    return fail({
      code: 'conflict', reason: 'unknown_old_epoch', field: 'epoch',
      message: `Epoch ${body.epoch} was already rotated or revoked. Use the credential that replaced it.`,
    });
  }
  if (body.epoch !== current.epoch) {
    return fail({
      code: 'conflict', reason: 'unknown_old_epoch', field: 'epoch',
      message: `The presented credential is at epoch ${current.epoch}, not ${body.epoch}. Check GET /api/whoami and retry with its epoch.`,
    });
  }
  if (await credentialHashExists(tx, body.credential_hash)) {
    return fail({
      code: 'conflict', reason: 'credential_already_registered', field: 'credential_hash',
      message: 'This credential_hash is already registered. Generate a new secret for the rotation.',
    });
  }
  const id = newId('credential', at.getTime());
  await revokeCredential(tx, current.id, at);
  await insertCredential(tx, {
    id, identityId: job.identityId, hash: body.credential_hash, scopes: current.scopes,
    epoch: current.epoch + 1, expiresAt: credentialExpiry(at),
  });
  return {
    ok: true,
    resource: { type: 'credential', id, revision: current.epoch + 1, links: null },
    change: { kind: 'credential.rotated', resourceType: 'credential', resourceId: id, revision: null, affects: [], public: false },
  };
}

export async function revokeOwnCredential(tx: Queryable, job: CommitJob, at: Date): Promise<OperationOutcome> {
  const current = await lockCredential(tx, job.credentialId);
  if (!current) return credentialGone();
  await revokeCredential(tx, current.id, at);
  return {
    ok: true,
    resource: { type: 'credential', id: current.id, revision: current.epoch, links: null },
    change: { kind: 'credential.revoked', resourceType: 'credential', resourceId: current.id, revision: null, affects: [], public: false },
  };
}
