/**
 * The trust facts a record's projections carry (docs/trust.md): `trust`,
 * signals of the revision shown, outcomes per revision and environment, and
 * feedback as evidence. Computed from the reports as of `now`, the clock
 * tests inject.
 */
import { assessProblemTrust, assessTrust, type ProblemTrust, type Trust } from '../core/trust/assess.ts';
import {
  countSignalsOf,
  outcomesByRevision,
  type RevisionOutcomes,
  type SignalCounts,
} from '../core/trust/breakdown.ts';
import { reportsOf, trustInputOf } from '../core/trust/subject.ts';
import type { FeedbackEvidence } from '../db/queries/trust.ts';
import type { ViewSource } from './view-source.ts';

export interface SolutionTrustFacts {
  /** Each identity's latest report on the revision shown. */
  signals: SignalCounts;
  trust: Trust;
  outcomes_by_revision: RevisionOutcomes[];
  feedback: FeedbackEvidence[];
}

export async function buildSolutionTrust(
  src: ViewSource,
  id: string,
  revision: number,
  now: Date,
): Promise<SolutionTrustFacts> {
  const subject = (await src.trustSubjects('solution', [id])).get(id)!;
  return {
    signals: countSignalsOf(reportsOf(subject, revision).outcomes),
    trust: assessTrust(trustInputOf(subject, revision), now),
    outcomes_by_revision: outcomesByRevision(subject),
    feedback: (await src.feedbackEvidence('solution', [id])).get(id)!,
  };
}

/** Signals and trust of each listed solution's current revision. */
export async function buildSolutionListTrust(
  src: ViewSource,
  ids: string[],
  now: Date,
): Promise<Map<string, { signals: SignalCounts; trust: Trust }>> {
  const subjects = await src.trustSubjects('solution', ids);
  const facts = new Map<string, { signals: SignalCounts; trust: Trust }>();
  for (const [id, subject] of subjects) {
    facts.set(id, {
      signals: countSignalsOf(reportsOf(subject, subject.currentRevision).outcomes),
      trust: assessTrust(trustInputOf(subject, subject.currentRevision), now),
    });
  }
  return facts;
}

export interface ProblemTrustFacts {
  trust: ProblemTrust;
  feedback: FeedbackEvidence[];
}

export async function buildProblemTrust(src: ViewSource, id: string, revision: number): Promise<ProblemTrustFacts> {
  const subject = (await src.trustSubjects('problem', [id])).get(id)!;
  return {
    trust: assessProblemTrust(trustInputOf(subject, revision)),
    feedback: (await src.feedbackEvidence('problem', [id])).get(id)!,
  };
}
