/**
 * Recomputes a record's stored trust inside the commit transaction that
 * changed its reports (an outcome, counter feedback, a new revision), and
 * logs `<type>.disputed` / `<type>.undisputed` when the disputed state of
 * its current revision flips.
 */
import { summarizeTrust } from '../core/trust/assess.ts';
import { trustInputOf } from '../core/trust/subject.ts';
import type { Queryable } from '../db/pool.ts';
import type { NewChange } from '../db/queries/changes.ts';
import { loadTrustSubjects, lockRecordTrust, saveRecordTrust, type TrustRecordType } from '../db/queries/trust.ts';

export async function refreshTrust(
  tx: Queryable,
  ref: { type: TrustRecordType; id: string },
  at: Date,
): Promise<Omit<NewChange, 'at'>[]> {
  // Lock before reading, so a concurrent report on this record is seen by one of the two.
  const stored = await lockRecordTrust(tx, ref.type, ref.id, at);
  const subject = (await loadTrustSubjects(tx, ref.type, [ref.id])).get(ref.id);
  if (!subject) return [];
  const summary = summarizeTrust(trustInputOf(subject, subject.currentRevision));
  await saveRecordTrust(tx, ref.type, ref.id, summary, at);
  if (summary.disputed === stored.disputed) return [];
  return [
    {
      kind: `${ref.type}.${summary.disputed ? 'disputed' : 'undisputed'}`,
      resourceType: ref.type,
      resourceId: ref.id,
      revision: subject.currentRevision,
      affects: [ref],
    },
  ];
}
