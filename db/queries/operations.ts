/** SQL for the idempotent operation log. */
import type { OperationReceipt } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';
import type { NewChange } from './changes.ts';

export interface OperationRow {
  operation: string;
  request_hash: string;
  receipt: OperationReceipt;
}

/**
 * Claims (identity, key) inside the caller's transaction. Returns false when
 * the key is already committed; a concurrent claimant blocks here until the
 * first transaction ends, so one key never commits twice.
 */
export async function claimOperation(
  db: Queryable,
  op: { identityId: string; key: string; operation: string; requestHash: string; at: Date },
): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO operations (identity_id, idempotency_key, operation, request_hash, receipt, committed_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, '{}'::jsonb, $5::timestamptz)
     ON CONFLICT (identity_id, idempotency_key) DO NOTHING`,
    [op.identityId, op.key, op.operation, op.requestHash, op.at],
  );
  return r.rowCount === 1;
}

export async function saveReceipt(
  db: Queryable,
  identityId: string,
  key: string,
  receipt: OperationReceipt,
): Promise<void> {
  await db.query(
    `UPDATE operations SET receipt = $3::jsonb WHERE identity_id = $1::text AND idempotency_key = $2::text`,
    [identityId, key, JSON.stringify(receipt)],
  );
}

export async function findOperation(db: Queryable, identityId: string, key: string): Promise<OperationRow | null> {
  const r = await db.query(
    `SELECT operation, request_hash, receipt FROM operations
      WHERE identity_id = $1::text AND idempotency_key = $2::text`,
    [identityId, key],
  );
  return r.rows[0] ?? null;
}

export interface Claim {
  identityId: string;
  key: string;
  operation: string;
  requestHash: string;
  at: Date;
}

const claimId = (identityId: string, key: string) => `${identityId}\n${key}`;

/**
 * `claimOperation` for several keys in one statement: returns, for each
 * claim in order, whether it was made (false: the key is already
 * committed). Keys must differ from each other. They are inserted in key
 * order, not the batch's: two batches claiming some of the same keys then
 * take their index locks in one order and cannot deadlock on them.
 */
export async function claimOperations(db: Queryable, claims: readonly Claim[]): Promise<boolean[]> {
  const r = await db.query<{ identity_id: string; idempotency_key: string }>(
    `INSERT INTO operations (identity_id, idempotency_key, operation, request_hash, receipt, committed_at)
     SELECT c.identity_id, c.idempotency_key, c.operation, c.request_hash, '{}'::jsonb, c.committed_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
            AS c(identity_id, idempotency_key, operation, request_hash, committed_at)
      ORDER BY c.identity_id, c.idempotency_key
     ON CONFLICT (identity_id, idempotency_key) DO NOTHING
     RETURNING identity_id, idempotency_key`,
    [
      claims.map((c) => c.identityId),
      claims.map((c) => c.key),
      claims.map((c) => c.operation),
      claims.map((c) => c.requestHash),
      claims.map((c) => c.at),
    ],
  );
  const made = new Set(r.rows.map((row) => claimId(row.identity_id, row.idempotency_key)));
  return claims.map((c) => made.has(claimId(c.identityId, c.key)));
}

/**
 * Appends each write's change and stores its receipt (claimed already) with
 * that change's cursor as `change_cursor`, for several writes in one
 * statement: one round trip, where a change and then a receipt were two
 * per write. The changes are appended in the order given, so their cursors
 * ascend in it. Returns the cursors in order.
 */
export async function appendChangesAndSaveReceipts(
  db: Queryable,
  writes: readonly { identityId: string; key: string; change: NewChange; receipt: OperationReceipt }[],
): Promise<string[]> {
  const column = <T>(pick: (w: (typeof writes)[number]) => T) => writes.map(pick);
  const r = await db.query<{ ord: string; cursor: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::boolean[],
                            $7::timestamptz[], $8::text[], $9::text[], $10::text[])
              WITH ORDINALITY AS w(kind, resource_type, resource_id, revision, affects, public, committed_at,
                                   receipt, identity_id, idempotency_key, ord)),
     change AS (
       INSERT INTO changes (kind, resource_type, resource_id, revision, affects, public, committed_at)
       SELECT kind, resource_type, resource_id, revision, affects::jsonb, public, committed_at
         FROM input ORDER BY ord
       RETURNING cursor),
     numbered AS (SELECT cursor, row_number() OVER (ORDER BY cursor) AS ord FROM change)
     UPDATE operations o
        SET receipt = jsonb_set(input.receipt::jsonb, '{change_cursor}', to_jsonb(numbered.cursor::text))
       FROM input JOIN numbered USING (ord)
      WHERE o.identity_id = input.identity_id AND o.idempotency_key = input.idempotency_key
     RETURNING input.ord::text AS ord, numbered.cursor::text AS cursor`,
    [
      column((w) => w.change.kind),
      column((w) => w.change.resourceType),
      column((w) => w.change.resourceId),
      column((w) => w.change.revision),
      column((w) => JSON.stringify(w.change.affects)),
      column((w) => w.change.public ?? true),
      column((w) => w.change.at),
      column((w) => JSON.stringify(w.receipt)),
      column((w) => w.identityId),
      column((w) => w.key),
    ],
  );
  if (r.rows.length !== writes.length) throw new Error('a receipt of the batch was not stored');
  const cursors: string[] = [];
  for (const row of r.rows) cursors[Number(row.ord) - 1] = row.cursor;
  return cursors;
}
