/** SQL for the idempotent operation log. */
import type { OperationReceipt } from '../../core/types.ts';
import type { Queryable } from '../pool.ts';
import { changeParams, INSERT_CHANGE, type NewChange } from './changes.ts';

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

/**
 * Appends the write's change and stores its receipt with the change's cursor
 * in one statement: one round trip fewer per commit than `appendChange` and
 * then `saveReceipt`, each of which costs a system call or two on both ends.
 * The receipt's `change_cursor` is set to the new change's. Returns the cursor.
 */
export async function appendChangeAndSaveReceipt(
  db: Queryable,
  identityId: string,
  key: string,
  change: NewChange,
  receipt: OperationReceipt,
): Promise<string> {
  const r = await db.query<{ cursor: string }>(
    `WITH change AS (${INSERT_CHANGE} RETURNING cursor)
     UPDATE operations SET receipt = jsonb_set($8::jsonb, '{change_cursor}', to_jsonb(change.cursor::text))
       FROM change
      WHERE identity_id = $9::text AND idempotency_key = $10::text
     RETURNING change.cursor::text AS cursor`,
    [...changeParams(change), JSON.stringify(receipt), identityId, key],
  );
  return r.rows[0]!.cursor;
}

export async function findOperation(db: Queryable, identityId: string, key: string): Promise<OperationRow | null> {
  const r = await db.query(
    `SELECT operation, request_hash, receipt FROM operations
      WHERE identity_id = $1::text AND idempotency_key = $2::text`,
    [identityId, key],
  );
  return r.rows[0] ?? null;
}
