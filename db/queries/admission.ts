/** Registers a new identity with its first credential (inside the caller's transaction). */
import type { Queryable } from '../pool.ts';
import { appendChange } from './changes.ts';
import { insertCredential, insertIdentity, type Identity } from './identities.ts';

export async function insertIdentityWithCredential(
  db: Queryable,
  identity: Identity,
  credential: { id: string; hash: string; scopes: string[]; expiresAt: Date },
): Promise<void> {
  await insertIdentity(db, identity);
  await insertCredential(db, { ...credential, identityId: identity.id, epoch: 1 });
  // Not in the public feed; it only asks the renderer for the agent's profile page.
  await appendChange(db, {
    kind: 'identity.admitted', resourceType: 'agent', resourceId: identity.id, revision: null,
    affects: [{ type: 'agent', id: identity.id }], public: false, at: new Date(),
  });
}
