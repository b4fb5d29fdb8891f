/**
 * SQL for the OAuth authorization server: oidc-provider's adapter storage
 * (keys arrive already hashed) and the connections /account lists.
 */
import type { Queryable } from '../pool.ts';

export interface OAuthRecord {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

export async function upsertOAuthRecord(
  db: Queryable,
  r: {
    model: string;
    idHash: string;
    grantId: string | null;
    uidHash: string | null;
    payload: object;
    expiresAt: Date | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_records (model, id_hash, grant_id, uid_hash, payload, expires_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::timestamptz)
     ON CONFLICT (model, id_hash) DO UPDATE SET grant_id = EXCLUDED.grant_id, uid_hash = EXCLUDED.uid_hash,
       payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
    [r.model, r.idHash, r.grantId, r.uidHash, JSON.stringify(r.payload), r.expiresAt],
  );
}

/** A live record: expired ones are never returned, whatever the sweep has done. */
export async function findOAuthRecord(db: Queryable, model: string, idHash: string): Promise<OAuthRecord | null> {
  const r = await db.query(
    `SELECT payload, consumed_at FROM oauth_records
      WHERE model = $1::text AND id_hash = $2::text AND (expires_at IS NULL OR expires_at > now())`,
    [model, idHash],
  );
  return r.rows[0] ?? null;
}

export async function findOAuthRecordByUid(db: Queryable, model: string, uidHash: string): Promise<OAuthRecord | null> {
  const r = await db.query(
    `SELECT payload, consumed_at FROM oauth_records
      WHERE model = $1::text AND uid_hash = $2::text AND (expires_at IS NULL OR expires_at > now())`,
    [model, uidHash],
  );
  return r.rows[0] ?? null;
}

/**
 * Marks a code or refresh token spent, if no one has yet: whether this call
 * did, and the record's grant. In one statement, so of two requests that
 * both read the token unspent only one spends it.
 */
export async function consumeOAuthRecord(
  db: Queryable,
  model: string,
  idHash: string,
): Promise<{ consumed: boolean; grantId: string | null }> {
  const r = await db.query<{ consumed: boolean; grant_id: string | null }>(
    `WITH spent AS (
       UPDATE oauth_records SET consumed_at = now()
        WHERE model = $1::text AND id_hash = $2::text AND consumed_at IS NULL RETURNING grant_id)
     SELECT EXISTS (SELECT FROM spent) AS consumed,
            (SELECT grant_id FROM oauth_records WHERE model = $1::text AND id_hash = $2::text) AS grant_id`,
    [model, idHash],
  );
  return { consumed: r.rows[0]!.consumed, grantId: r.rows[0]!.grant_id };
}

export async function deleteOAuthRecord(db: Queryable, model: string, idHash: string): Promise<void> {
  await db.query('DELETE FROM oauth_records WHERE model = $1::text AND id_hash = $2::text', [model, idHash]);
}

/**
 * Ends a grant: its codes and tokens go, and the connection it made is
 * marked revoked, whoever ended it (the person on /account, the client by
 * RFC 7009, reuse detection), so /account no longer lists it as live and no
 * token written in a race passes the connection check.
 */
export async function deleteOAuthRecordsOfGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM oauth_records WHERE grant_id = $1::text)
     UPDATE oauth_connections SET revoked_at = now() WHERE grant_id = $1::text AND revoked_at IS NULL`,
    [grantId],
  );
}

export async function deleteExpiredOAuthRecords(db: Queryable): Promise<number> {
  return (await db.query('DELETE FROM oauth_records WHERE expires_at < now()')).rowCount ?? 0;
}

/** Clears a record's expiry (a registered client that an account connected with). */
export async function keepOAuthRecord(db: Queryable, model: string, idHash: string): Promise<void> {
  await db.query(
    'UPDATE oauth_records SET expires_at = NULL WHERE model = $1::text AND id_hash = $2::text AND expires_at IS NOT NULL',
    [model, idHash],
  );
}

export interface UnusedClient {
  client_id: string;
  client_name: string | null;
  registered_at: Date | null;
  expires_at: Date;
  expired: boolean;
}

const UNUSED_CLIENTS = `FROM oauth_records r
  WHERE r.model = 'Client' AND r.expires_at IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM oauth_connections c WHERE c.client_id = r.payload->>'client_id')`;

/** Registered clients no account has connected with, oldest first; `expired` ones no longer answer. */
export async function listUnusedClients(db: Queryable): Promise<UnusedClient[]> {
  const r = await db.query(
    `SELECT r.payload->>'client_id' AS client_id, r.payload->>'client_name' AS client_name,
            to_timestamp((r.payload->>'client_id_issued_at')::double precision) AS registered_at,
            r.expires_at, r.expires_at <= now() AS expired
       ${UNUSED_CLIENTS} ORDER BY r.expires_at, r.id_hash`,
  );
  return r.rows;
}

/** Removes the unused clients (all of them, or only the expired ones) and every other expired record. */
export async function removeUnusedClients(
  db: Queryable,
  which: 'expired' | 'all',
): Promise<{ clients: number; records: number }> {
  const clients = await db.query(`DELETE ${UNUSED_CLIENTS}${which === 'expired' ? ' AND r.expires_at <= now()' : ''}`);
  return { clients: clients.rowCount ?? 0, records: await deleteExpiredOAuthRecords(db) };
}

export interface ConnectionRow {
  grant_id: string;
  identity_id: string;
  client_id: string;
  client_name: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function upsertConnection(
  db: Queryable,
  c: { grantId: string; identityId: string; clientId: string; clientName: string; scopes: string[] },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_connections (grant_id, identity_id, client_id, client_name, scopes)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text[])
     ON CONFLICT (grant_id) DO UPDATE SET scopes = EXCLUDED.scopes, client_name = EXCLUDED.client_name`,
    [c.grantId, c.identityId, c.clientId, c.clientName, c.scopes],
  );
}

export async function findConnection(db: Queryable, grantId: string): Promise<ConnectionRow | null> {
  const r = await db.query('SELECT * FROM oauth_connections WHERE grant_id = $1::text', [grantId]);
  return r.rows[0] ?? null;
}

/** The account's live connections, newest first. */
export async function listConnections(db: Queryable, identityId: string): Promise<ConnectionRow[]> {
  const r = await db.query(
    `SELECT * FROM oauth_connections WHERE identity_id = $1::text AND revoked_at IS NULL ORDER BY created_at DESC, grant_id`,
    [identityId],
  );
  return r.rows;
}

/** Whether the account has a live (unrevoked) connection to the client. */
export async function findLiveConnectionOf(db: Queryable, identityId: string, clientId: string): Promise<boolean> {
  const r = await db.query(
    'SELECT 1 FROM oauth_connections WHERE identity_id = $1::text AND client_id = $2::text AND revoked_at IS NULL LIMIT 1',
    [identityId, clientId],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Marks the connection used; at most one write a minute per connection. */
export async function touchConnection(db: Queryable, grantId: string): Promise<void> {
  // A hint, so it never waits: a commit holding the row (its caller check share-locks it) is passed over.
  await db.query(
    `UPDATE oauth_connections SET last_used_at = now()
      WHERE grant_id = (SELECT grant_id FROM oauth_connections
                         WHERE grant_id = $1::text AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
                           FOR NO KEY UPDATE SKIP LOCKED)`,
    [grantId],
  );
}

/** Revokes the account's connection; true when it was live. Only the owner's id matches. */
export async function revokeConnection(db: Queryable, grantId: string, identityId: string): Promise<boolean> {
  const r = await db.query(
    `UPDATE oauth_connections SET revoked_at = now()
      WHERE grant_id = $1::text AND identity_id = $2::text AND revoked_at IS NULL`,
    [grantId, identityId],
  );
  return (r.rowCount ?? 0) > 0;
}
