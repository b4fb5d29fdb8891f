/**
 * SQL of the operator's import: its lines' keys live in the operation log
 * (`operations`, keyed by the importing identity and `import:<sha-256 of the
 * key>`), as a write's Idempotency-Key does, so an imported record is
 * claimed once however often, or however many times interrupted, the file
 * is imported.
 */
import type { OperationReceipt } from '../../core/types.ts';
import type pg from 'pg';
import { clientAddressKey } from '../../core/trust/address-key.ts';
import { withTransaction, type Queryable } from '../pool.ts';
import { admitIdentity } from './admission.ts';

/** The client key an import's identity is admitted under: the operator's command, not a network client. */
export const IMPORT_CLIENT_KEY = clientAddressKey('operator-import');

/**
 * The identity an import writes as, by handle: made (pseudonymous) on first use, through the admission
 * every identity takes (its admission group, its `identity.admitted` change). Two imports making the
 * same handle at once: the loser's insert fails on the handle and it takes the winner's identity.
 */
export async function ensureImportIdentity(pool: pg.Pool, id: string, handle: string): Promise<string> {
  const known = await findIdentityByHandle(pool, handle);
  if (known !== null) return known;
  try {
    await withTransaction(pool, (tx) =>
      admitIdentity(tx, { id, kind: 'pseudonymous', handle, display_name: null }, IMPORT_CLIENT_KEY),
    );
    return id;
  } catch (error) {
    const made = (error as { code?: string }).code === '23505' ? await findIdentityByHandle(pool, handle) : null;
    if (made === null) throw error;
    return made;
  }
}

/** The identity of `handle`, or null. */
export async function findIdentityByHandle(db: Queryable, handle: string): Promise<string | null> {
  const r = await db.query<{ id: string }>('SELECT id FROM identities WHERE handle = $1::text', [handle]);
  return r.rows[0]?.id ?? null;
}

export interface ImportedKey {
  requestHash: string;
  /** The record the key created; null while its batch has not committed its receipt. */
  resourceType: string | null;
  resourceId: string | null;
}

/** Which of `keys` (operation-log keys) `identityId` has imported, with what and as which record. */
export async function findImportedKeys(
  db: Queryable,
  identityId: string,
  keys: string[],
): Promise<Map<string, ImportedKey>> {
  if (keys.length === 0) return new Map();
  const r = await db.query<{ key: string; request_hash: string; type: string | null; id: string | null }>(
    `SELECT idempotency_key AS key, request_hash, receipt->'resource'->>'type' AS type, receipt->'resource'->>'id' AS id
       FROM operations WHERE identity_id = $1::text AND idempotency_key = ANY($2::text[])`,
    [identityId, keys],
  );
  return new Map(
    r.rows.map((row) => [row.key, { requestHash: row.request_hash, resourceType: row.type, resourceId: row.id }]),
  );
}

export interface ImportClaim {
  key: string;
  operation: string;
  requestHash: string;
  at: Date;
}

/**
 * Claims the keys inside the caller's transaction; returns those claimed
 * now. A key committed before (an earlier run, or a concurrent one that got
 * there first: this waits for it) is not returned.
 */
export async function claimImportKeys(db: Queryable, identityId: string, claims: ImportClaim[]): Promise<Set<string>> {
  const r = await db.query<{ key: string }>(
    `INSERT INTO operations (identity_id, idempotency_key, operation, request_hash, receipt, committed_at)
     SELECT $1::text, key, operation, request_hash, '{}'::jsonb, at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS t(key, operation, request_hash, at)
     ON CONFLICT (identity_id, idempotency_key) DO NOTHING
     RETURNING idempotency_key AS key`,
    [
      identityId,
      claims.map((c) => c.key),
      claims.map((c) => c.operation),
      claims.map((c) => c.requestHash),
      claims.map((c) => c.at),
    ],
  );
  return new Set(r.rows.map((row) => row.key));
}

/** Stores the receipts of keys claimed in this transaction, as a write's commit does. */
export async function saveImportReceipts(
  db: Queryable,
  identityId: string,
  receipts: OperationReceipt[],
): Promise<void> {
  await db.query(
    `UPDATE operations o SET receipt = t.receipt
       FROM unnest($2::text[], $3::jsonb[]) AS t(key, receipt)
      WHERE o.identity_id = $1::text AND o.idempotency_key = t.key`,
    [identityId, receipts.map((r) => r.idempotency_key), receipts.map((r) => JSON.stringify(r))],
  );
}

/** Which of `ids` are problems. */
export async function existingProblemIds(db: Queryable, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await db.query<{ id: string }>('SELECT id FROM problems WHERE id = ANY($1::text[])', [ids]);
  return new Set(r.rows.map((row) => row.id));
}
