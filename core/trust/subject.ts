/**
 * A record's reports grouped by revision: what the SQL loads once and every
 * trust fact (confidence, dispute, per-revision and per-environment
 * outcomes) is computed from.
 */
import type { CounterFeedback, OutcomeReport, TrustInput } from './assess.ts';

export interface RevisionOutcome extends OutcomeReport {
  environment: Record<string, string>;
}

export interface RevisionReports {
  /** Each identity's latest outcome on this revision. */
  outcomes: RevisionOutcome[];
  /** Counter feedback filed while this revision was current. */
  feedback: CounterFeedback[];
}

export interface TrustSubject {
  type: 'problem' | 'solution';
  id: string;
  currentRevision: number;
  author: { identityId: string; group: string | null };
  byRevision: Map<number, RevisionReports>;
}

const EMPTY: RevisionReports = { outcomes: [], feedback: [] };

export function reportsOf(subject: TrustSubject, revision: number): RevisionReports {
  return subject.byRevision.get(revision) ?? EMPTY;
}

export function trustInputOf(subject: TrustSubject, revision: number): TrustInput {
  const reports = reportsOf(subject, revision);
  return { revision, author: subject.author, outcomes: reports.outcomes, feedback: reports.feedback };
}
