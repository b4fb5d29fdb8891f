/**
 * Registers a new identity, alone or with its first credential (inside the
 * caller's transaction). Every identity is admitted here, whatever made it
 * (a direct credential, a passkey account), and always with the client key
 * it came from: its admission group is recorded in the same transaction, so
 * no identity exists that trust would count as a group of its own.
 */
import { TRUST_RULES } from '../../core/trust/rules.ts';
import type { Queryable } from '../pool.ts';
import { appendChange } from './changes.ts';
import { insertCredential, insertIdentity, type Identity } from './identities.ts';
import { recordAdmission } from './trust.ts';

/** The identity, its admission group, and the change that asks the renderer for its profile page (not in the public feed). */
export async function admitIdentity(db: Queryable, identity: Identity, clientKey: string): Promise<void> {
  const at = new Date();
  await insertIdentity(db, identity);
  // Trust counts identities admitted from one client key in a short window as one confirmer.
  await recordAdmission(db, {
    identityId: identity.id,
    addressKey: clientKey,
    at,
    windowSeconds: TRUST_RULES.admissionWindowSeconds,
  });
  await appendChange(db, {
    kind: 'identity.admitted',
    resourceType: 'agent',
    resourceId: identity.id,
    revision: null,
    affects: [{ type: 'agent', id: identity.id }],
    public: false,
    at,
  });
}

export async function insertIdentityWithCredential(
  db: Queryable,
  identity: Identity,
  credential: { id: string; hash: string; scopes: string[]; expiresAt: Date },
  clientKey: string,
): Promise<void> {
  await admitIdentity(db, identity, clientKey);
  await insertCredential(db, { ...credential, identityId: identity.id, epoch: 1 });
}
