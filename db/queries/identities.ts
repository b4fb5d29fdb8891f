/** SQL for identities and their credentials. */
import type { Queryable } from '../pool.ts';

export interface Identity {
  id: string;
  kind: 'guest' | 'pseudonymous';
  handle: string | null;
  display_name: string | null;
}

export interface CredentialRow {
  id: string;
  identity_id: string;
  scopes: string[];
  epoch: number;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface AuthenticatedCredential extends CredentialRow {
  identity: Identity;
}

export async function insertIdentity(db: Queryable, identity: Identity): Promise<void> {
  await db.query(
    `INSERT INTO identities (id, kind, handle, display_name) VALUES ($1::text, $2::text, $3::text, $4::text)`,
    [identity.id, identity.kind, identity.handle, identity.display_name],
  );
}

export async function insertCredential(
  db: Queryable,
  c: { id: string; identityId: string; hash: string; scopes: string[]; epoch: number; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO credentials (id, identity_id, hash, scopes, epoch, expires_at)
     VALUES ($1::text, $2::text, $3::text, $4::text[], $5::int, $6::timestamptz)`,
    [c.id, c.identityId, c.hash, c.scopes, c.epoch, c.expiresAt],
  );
}

export async function credentialHashExists(db: Queryable, hash: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM credentials WHERE hash = $1::text', [hash]);
  return (r.rowCount ?? 0) > 0;
}

export async function handleExists(db: Queryable, handle: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM identities WHERE handle = $1::text', [handle]);
  return (r.rowCount ?? 0) > 0;
}

/** The credential with this hash and its identity, whatever its state. */
export async function findCredentialByHash(db: Queryable, hash: string): Promise<AuthenticatedCredential | null> {
  const r = await db.query(
    `SELECT c.id, c.identity_id, c.scopes, c.epoch, c.expires_at, c.revoked_at,
            i.kind, i.handle, i.display_name
       FROM credentials c JOIN identities i ON i.id = c.identity_id
      WHERE c.hash = $1::text`,
    [hash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    identity_id: row.identity_id,
    scopes: row.scopes,
    epoch: row.epoch,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    identity: { id: row.identity_id, kind: row.kind, handle: row.handle, display_name: row.display_name },
  };
}

export async function findIdentity(db: Queryable, id: string): Promise<Identity | null> {
  const r = await db.query('SELECT id, kind, handle, display_name FROM identities WHERE id = $1::text', [id]);
  return r.rows[0] ?? null;
}
