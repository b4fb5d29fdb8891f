/** SQL for accounts, their passkeys, pending passkey ceremonies and browser sessions. */
import type { Queryable } from '../pool.ts';

export interface AccountRow {
  identity_id: string;
  user_handle: string;
  handle: string;
}

export interface PasskeyRow {
  id: string;
  identity_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
}

export interface ChallengeRow {
  purpose: 'register' | 'authenticate';
  challenge: string;
  handle: string | null;
  user_handle: string | null;
}

export async function insertAccount(db: Queryable, identityId: string, userHandle: string): Promise<void> {
  await db.query('INSERT INTO accounts (identity_id, user_handle) VALUES ($1::text, $2::text)', [
    identityId,
    userHandle,
  ]);
}

export async function findAccount(db: Queryable, identityId: string): Promise<AccountRow | null> {
  const r = await db.query(
    `SELECT a.identity_id, a.user_handle, i.handle FROM accounts a JOIN identities i ON i.id = a.identity_id
      WHERE a.identity_id = $1::text`,
    [identityId],
  );
  return r.rows[0] ?? null;
}

export async function insertPasskey(
  db: Queryable,
  p: { id: string; identityId: string; publicKey: Uint8Array; counter: number; transports: string[] },
): Promise<void> {
  await db.query(
    `INSERT INTO passkeys (id, identity_id, public_key, counter, transports)
     VALUES ($1::text, $2::text, $3::bytea, $4::bigint, $5::text[])`,
    [p.id, p.identityId, Buffer.from(p.publicKey), p.counter, p.transports],
  );
}

export async function findPasskey(db: Queryable, id: string): Promise<PasskeyRow | null> {
  const r = await db.query(
    'SELECT id, identity_id, public_key, counter, transports FROM passkeys WHERE id = $1::text',
    [id],
  );
  return r.rows[0] ?? null;
}

/** Records a use; the counter only moves forward, so a cloned authenticator is noticed by the verifier. */
export async function recordPasskeyUse(db: Queryable, id: string, counter: number): Promise<void> {
  await db.query(
    'UPDATE passkeys SET counter = greatest(counter, $2::bigint), last_used_at = now() WHERE id = $1::text',
    [id, counter],
  );
}

export async function countPasskeys(db: Queryable, identityId: string): Promise<number> {
  const r = await db.query('SELECT count(*)::int AS n FROM passkeys WHERE identity_id = $1::text', [identityId]);
  return r.rows[0].n;
}

export async function insertChallenge(
  db: Queryable,
  c: {
    id: string;
    purpose: ChallengeRow['purpose'];
    challenge: string;
    handle?: string;
    userHandle?: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO passkey_challenges (id, purpose, challenge, handle, user_handle, expires_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::timestamptz)`,
    [c.id, c.purpose, c.challenge, c.handle ?? null, c.userHandle ?? null, c.expiresAt],
  );
  // Expired ceremonies are dropped as new ones begin, so the table stays small.
  await db.query('DELETE FROM passkey_challenges WHERE expires_at < now()');
}

/** Takes a ceremony's challenge, once: a second verify with the same id finds nothing. */
export async function takeChallenge(
  db: Queryable,
  id: string,
  purpose: ChallengeRow['purpose'],
): Promise<ChallengeRow | null> {
  const r = await db.query(
    `DELETE FROM passkey_challenges WHERE id = $1::text AND purpose = $2::text AND expires_at > now()
     RETURNING purpose, challenge, handle, user_handle`,
    [id, purpose],
  );
  return r.rows[0] ?? null;
}

export async function insertSession(db: Queryable, hash: string, identityId: string, expiresAt: Date): Promise<void> {
  await db.query(
    'INSERT INTO account_sessions (hash, identity_id, expires_at) VALUES ($1::text, $2::text, $3::timestamptz)',
    [hash, identityId, expiresAt],
  );
}

/** The signed-in account of a live session, or null. */
export async function findSessionAccount(db: Queryable, hash: string): Promise<AccountRow | null> {
  const r = await db.query(
    `SELECT a.identity_id, a.user_handle, i.handle
       FROM account_sessions s JOIN accounts a ON a.identity_id = s.identity_id JOIN identities i ON i.id = a.identity_id
      WHERE s.hash = $1::text AND s.expires_at > now()`,
    [hash],
  );
  return r.rows[0] ?? null;
}

export async function deleteSession(db: Queryable, hash: string): Promise<void> {
  await db.query('DELETE FROM account_sessions WHERE hash = $1::text OR expires_at < now()', [hash]);
}
