/** SQL for feedback reports. */
import type { Queryable } from '../pool.ts';

export async function insertFeedbackReport(
  db: Queryable,
  f: { id: string; identityId: string; kind: string; targetType: string; targetId: string; body: string; evidence: string[]; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO feedback_reports (id, identity_id, kind, target_type, target_id, body, evidence, created_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz)`,
    [f.id, f.identityId, f.kind, f.targetType, f.targetId, f.body, JSON.stringify(f.evidence), f.at],
  );
}

export type FeedbackCounts = Record<'feedback' | 'report_failure' | 'report_outdated' | 'add_evidence', number>;

/** How many reports of each kind a record has, counting each identity once per kind. */
export async function countFeedback(db: Queryable, targetType: string, targetId: string): Promise<FeedbackCounts> {
  const r = await db.query<{ kind: keyof FeedbackCounts; n: string }>(
    `SELECT kind, count(DISTINCT identity_id) AS n FROM feedback_reports
      WHERE target_type = $1::text AND target_id = $2::text GROUP BY kind`,
    [targetType, targetId],
  );
  const counts: FeedbackCounts = { feedback: 0, report_failure: 0, report_outdated: 0, add_evidence: 0 };
  for (const row of r.rows) counts[row.kind] = Number(row.n);
  return counts;
}
