/** SQL for outcome reports against solutions. */
import type { Signal } from '../../core/schemas/fields.ts';
import type { Queryable } from '../pool.ts';

export interface OutcomeRow {
  id: string;
  solution_revision: number;
  identity_id: string;
  signal: Signal;
  note: string | null;
  environment: Record<string, string>;
  created_at: Date;
}

export type SignalCounts = Record<Signal, number>;

export async function insertOutcome(
  db: Queryable,
  o: { id: string; solutionId: string; solutionRevision: number; identityId: string; signal: Signal;
    note: string | null; environment: Record<string, string>; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO outcomes (id, solution_id, solution_revision, identity_id, signal, note, environment, created_at)
     VALUES ($1::text, $2::text, $3::int, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz)`,
    [o.id, o.solutionId, o.solutionRevision, o.identityId, o.signal, o.note, JSON.stringify(o.environment), o.at],
  );
}

export async function listOutcomes(db: Queryable, solutionId: string, offset: number, limit: number): Promise<OutcomeRow[]> {
  const r = await db.query(
    `SELECT id, solution_revision, identity_id, signal, note, environment, created_at
       FROM outcomes WHERE solution_id = $1::text
      ORDER BY created_at DESC, id DESC OFFSET $2::int LIMIT $3::int`,
    [solutionId, offset, limit + 1],
  );
  return r.rows;
}

/**
 * Signal counts per solution. An identity counts once per solution, with its
 * latest report: repeating a report cannot inflate a signal.
 */
export async function countSignals(db: Queryable, solutionIds: string[]): Promise<Map<string, SignalCounts>> {
  const r = await db.query<{ solution_id: string; signal: Signal; n: string }>(
    `SELECT solution_id, signal, count(*) AS n FROM (
       SELECT DISTINCT ON (solution_id, identity_id) solution_id, signal
         FROM outcomes WHERE solution_id = ANY($1::text[])
        ORDER BY solution_id, identity_id, created_at DESC, id DESC) latest
      GROUP BY solution_id, signal`,
    [solutionIds],
  );
  const counts = new Map<string, SignalCounts>();
  for (const id of solutionIds) counts.set(id, { worked: 0, partially_worked: 0, did_not_work: 0 });
  for (const row of r.rows) counts.get(row.solution_id)![row.signal] = Number(row.n);
  return counts;
}
