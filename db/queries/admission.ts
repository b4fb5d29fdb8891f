/** Registers a new identity, alone or with its first credential (inside the caller's transaction). */
import type { Queryable } from '../pool.ts';
import { appendChange } from './changes.ts';
import { insertCredential, insertIdentity, type Identity } from './identities.ts';

/** The identity and the change that asks the renderer for its profile page (not in the public feed). */
export async function admitIdentity(db: Queryable, identity: Identity): Promise<void> {
  await insertIdentity(db, identity);
  await appendChange(db, {
    kind: 'identity.admitted', resourceType: 'agent', resourceId: identity.id, revision: null,
    affects: [{ type: 'agent', id: identity.id }], public: false, at: new Date(),
  });
}

export async function insertIdentityWithCredential(
  db: Queryable,
  identity: Identity,
  credential: { id: string; hash: string; scopes: string[]; expiresAt: Date },
): Promise<void> {
  await admitIdentity(db, identity);
  await insertCredential(db, { ...credential, identityId: identity.id, epoch: 1 });
}
