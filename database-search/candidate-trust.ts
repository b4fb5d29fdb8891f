/**
 * `trust` of search candidates, compact (no counter-evidence notes: docs/api.md
 * says candidates carry no full evidence): a solution's confidence and
 * confirmations of its current revision, a problem's disputed state, and
 * null for discussions. Computed by the same functions as the projections,
 * from the subjects the search statement read, and one statement for any
 * candidate it did not.
 */
import type { Queryable } from '../db/pool.ts';
import { loadTrustSubjectsOf } from '../db/queries/trust.ts';
import type { z } from 'zod';
import type { CandidateTrustSchema } from '../core/schemas/trust.ts';
import { assessProblemTrust, assessTrust } from '../core/trust/assess.ts';
import { trustInputOf, type TrustSubject } from '../core/trust/subject.ts';

export type CandidateTrust = z.infer<typeof CandidateTrustSchema>;

export async function loadCandidateTrust(
  db: Queryable,
  candidates: { type: string; id: string }[],
  now: Date,
  options: { prepared?: boolean } = {},
  known: ReadonlyMap<string, TrustSubject> = new Map(),
): Promise<Map<string, CandidateTrust>> {
  // The search statement read the subjects of its answer's first rows (db/queries/search.ts, `MatchQuery.trust`);
  // only candidates the second stage brought up from below them are read here.
  const missing = candidates.filter((c) => !known.has(c.id));
  const idsOf = (type: string) => missing.filter((c) => c.type === type).map((c) => c.id);
  const loaded = await loadTrustSubjectsOf(db, { problem: idsOf('problem'), solution: idsOf('solution') }, options);
  const trust = new Map<string, CandidateTrust>();
  for (const { id } of candidates) {
    const subject = known.get(id) ?? loaded.get(id);
    if (!subject) continue;
    if (subject.type === 'solution') {
      const { confidence, confirmations, disputed, last_confirmed_at, basis } = assessTrust(
        trustInputOf(subject, subject.currentRevision),
        now,
      );
      trust.set(id, { confidence, confirmations, disputed, last_confirmed_at, basis });
    } else {
      const { disputed, basis } = assessProblemTrust(trustInputOf(subject, subject.currentRevision));
      trust.set(id, { disputed, basis });
    }
  }
  return trust;
}
