/** SQL for outcome reports against solutions. */
import type { Signal } from '../../core/schemas/fields.ts';
import type { Queryable } from '../pool.ts';

export interface OutcomeRow {
  id: string;
  solution_revision: number;
  identity_id: string;
  /** The reporter's handle, for pages (null without one). */
  identity_handle: string | null;
  signal: Signal;
  note: string | null;
  environment: Record<string, string>;
  created_at: Date;
}

export async function insertOutcome(
  db: Queryable,
  o: {
    id: string;
    solutionId: string;
    solutionRevision: number;
    identityId: string;
    signal: Signal;
    note: string | null;
    environment: Record<string, string>;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO outcomes (id, solution_id, solution_revision, identity_id, signal, note, environment, created_at)
     VALUES ($1::text, $2::text, $3::int, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz)`,
    [o.id, o.solutionId, o.solutionRevision, o.identityId, o.signal, o.note, JSON.stringify(o.environment), o.at],
  );
}

export async function listOutcomes(
  db: Queryable,
  solutionId: string,
  offset: number,
  limit: number,
): Promise<OutcomeRow[]> {
  const r = await db.query(
    `SELECT o.id, o.solution_revision, o.identity_id, i.handle AS identity_handle, o.signal, o.note, o.environment, o.created_at
       FROM outcomes o LEFT JOIN identities i ON i.id = o.identity_id WHERE o.solution_id = $1::text
      ORDER BY o.created_at DESC, o.id DESC OFFSET $2::int LIMIT $3::int`,
    [solutionId, offset, limit + 1],
  );
  return r.rows;
}
