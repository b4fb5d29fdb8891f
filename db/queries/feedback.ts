/** SQL for feedback reports. */
import type { Queryable } from '../pool.ts';

export async function insertFeedbackReport(
  db: Queryable,
  f: {
    id: string;
    identityId: string;
    kind: string;
    targetType: string;
    targetId: string;
    /** The target's current revision (null for targets without revisions): counter-evidence counts against it. */
    targetRevision: number | null;
    body: string;
    evidence: string[];
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO feedback_reports (id, identity_id, kind, target_type, target_id, target_revision, body, evidence, created_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::int, $7::text, $8::jsonb, $9::timestamptz)`,
    [f.id, f.identityId, f.kind, f.targetType, f.targetId, f.targetRevision, f.body, JSON.stringify(f.evidence), f.at],
  );
}
