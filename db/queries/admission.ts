/** Registers a new identity with its first credential (inside the caller's transaction). */
import type { Queryable } from '../pool.ts';
import { insertCredential, insertIdentity, type Identity } from './identities.ts';

export async function insertIdentityWithCredential(
  db: Queryable,
  identity: Identity,
  credential: { id: string; hash: string; scopes: string[]; expiresAt: Date },
): Promise<void> {
  await insertIdentity(db, identity);
  await insertCredential(db, { ...credential, identityId: identity.id, epoch: 1 });
}
