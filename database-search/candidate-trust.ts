/**
 * `trust` of search candidates, compact (no counter-evidence notes: SPEC 2
 * says candidates carry no full evidence): a solution's confidence and
 * confirmations of its current revision, a problem's disputed state, and
 * null for discussions. Computed by the same functions as the projections,
 * from one statement for the whole page.
 */
import type { Queryable } from '../db/pool.ts';
import { loadTrustSubjectsOf } from '../db/queries/trust.ts';
import type { z } from 'zod';
import type { CandidateTrustSchema } from '../core/schemas/trust.ts';
import { assessProblemTrust, assessTrust } from '../core/trust/assess.ts';
import { trustInputOf } from '../core/trust/subject.ts';

export type CandidateTrust = z.infer<typeof CandidateTrustSchema>;

export async function loadCandidateTrust(
  db: Queryable, candidates: { type: string; id: string }[], now: Date, options: { prepared?: boolean } = {},
): Promise<Map<string, CandidateTrust>> {
  const idsOf = (type: string) => candidates.filter((c) => c.type === type).map((c) => c.id);
  const subjects = await loadTrustSubjectsOf(db, { problem: idsOf('problem'), solution: idsOf('solution') }, options);
  const trust = new Map<string, CandidateTrust>();
  for (const [id, subject] of subjects) {
    if (subject.type === 'solution') {
      const { confidence, confirmations, disputed, last_confirmed_at, basis } = assessTrust(trustInputOf(subject, subject.currentRevision), now);
      trust.set(id, { confidence, confirmations, disputed, last_confirmed_at, basis });
    } else {
      const { disputed, basis } = assessProblemTrust(trustInputOf(subject, subject.currentRevision));
      trust.set(id, { disputed, basis });
    }
  }
  return trust;
}
