/**
 * `trust` of a solution or problem revision, from its reports: a pure
 * function of its inputs and `now` (the injectable clock), so the worker
 * (which stores the disputed state and logs its changes), the views and the
 * tests compute it identically.
 */
import type { z } from 'zod';
import type { Signal } from '../schemas/fields.ts';
import type {
  ConfirmationsSchema,
  CounterEvidenceSchema,
  CounterNoteSchema,
  ProblemTrustSchema,
  TrustSchema,
} from '../schemas/trust.ts';
import { decayFactor, roundConfidence, wilsonLowerBound } from './confidence.ts';
import { groupOf, latestPerGroup, withoutAuthor, type Reporter } from './independence.ts';
import { TRUST_RULES, type CounterFeedbackKind } from './rules.ts';

export interface OutcomeReport extends Reporter {
  signal: Signal;
  note: string | null;
}

export interface CounterFeedback extends Reporter {
  kind: CounterFeedbackKind;
  note: string;
}

export interface TrustInput {
  revision: number;
  author: Pick<Reporter, 'identityId' | 'group'>;
  /** Each identity's latest outcome report on `revision` (none for a problem). */
  outcomes: readonly OutcomeReport[];
  /** `report_failure` / `report_outdated` feedback filed while `revision` was current. */
  feedback: readonly CounterFeedback[];
}

export type CounterNote = z.infer<typeof CounterNoteSchema>;
export type CounterEvidence = z.infer<typeof CounterEvidenceSchema>;
export type Confirmations = z.infer<typeof ConfirmationsSchema>;
export type Trust = z.infer<typeof TrustSchema>;
export type ProblemTrust = z.infer<typeof ProblemTrustSchema>;
/** A record revision's dispute: what trust of a problem and of a solution share. */
export type Dispute = Pick<Trust, 'disputed' | 'revision' | 'counter_evidence'>;

const R = TRUST_RULES;

/** Whether a record revision is disputed, and the counter-evidence that says so. */
export function assessDispute(input: TrustInput): Dispute {
  const outcomes = latestPerGroup(withoutAuthor(input.outcomes, input.author));
  const feedback = withoutAuthor(input.feedback, input.author);
  const against = new Set<string>();
  const failureGroups = new Set<string>();
  const outdatedGroups = new Set<string>();
  let didNotWork = 0;
  for (const o of outcomes)
    if (o.signal === 'did_not_work') {
      against.add(groupOf(o));
      didNotWork += 1;
    }
  for (const f of feedback) {
    against.add(groupOf(f));
    (f.kind === 'report_failure' ? failureGroups : outdatedGroups).add(groupOf(f));
  }
  const support = outcomes.filter((o) => o.signal === 'worked' && !against.has(groupOf(o))).length;
  const disputed =
    against.size >= R.disputeMinIndependent && against.size >= R.disputeMinShare * (against.size + support);
  const notes: CounterNote[] = [
    ...withoutAuthor(input.outcomes, input.author)
      .filter((o) => o.signal === 'did_not_work')
      .map((o) => ({
        kind: 'did_not_work' as const,
        note: o.note,
        reporter: { id: o.identityId, handle: o.handle ?? null },
        at: o.at,
      })),
    ...feedback.map((f) => ({
      kind: f.kind,
      note: f.note,
      reporter: { id: f.identityId, handle: f.handle ?? null },
      at: f.at,
    })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.reporter.id < b.reporter.id ? 1 : -1))
    .slice(0, R.latestEvidence)
    .map(({ at, ...n }) => ({ ...n, reported_at: at.toISOString() }));
  return {
    revision: input.revision,
    disputed,
    counter_evidence: {
      independent: against.size,
      did_not_work: didNotWork,
      report_failure: failureGroups.size,
      report_outdated: outdatedGroups.size,
      latest: notes,
    },
  };
}

/**
 * What the commit stores: everything of `trust` but the decay, which
 * depends on the reader's clock. `bound` is the Wilson lower bound, already
 * multiplied by the disputed factor; `decay_from` the report it decays from.
 */
export interface TrustSummary extends Dispute {
  confirmations: Confirmations;
  bound: number;
  decay_from: string | null;
  last_confirmed_at: string | null;
}

export function summarizeTrust(input: TrustInput): TrustSummary {
  const dispute = assessDispute(input);
  const counted = withoutAuthor(input.outcomes, input.author);
  const groups = latestPerGroup(counted);
  const tally = { worked: 0, partially_worked: 0, did_not_work: 0 };
  for (const g of groups) tally[g.signal] += 1;
  const lastOf = (signal: Signal) =>
    groups.filter((g) => g.signal === signal).reduce<Date | null>((m, g) => (m && m > g.at ? m : g.at), null);
  const lastWorked = lastOf('worked');
  // Only partial confirmations: they decay from the latest of them.
  const anchor = lastWorked ?? lastOf('partially_worked');
  const bound = wilsonLowerBound(tally.worked + R.partialCredit * tally.partially_worked, groups.length);
  return {
    ...dispute,
    confirmations: {
      distinct_identities: new Set(counted.map((o) => o.identityId)).size,
      independent: groups.length,
      ...tally,
    },
    bound: bound * (dispute.disputed ? R.disputedFactor : 1),
    decay_from: anchor?.toISOString() ?? null,
    last_confirmed_at: lastWorked?.toISOString() ?? null,
  };
}

/** `trust` as of `now`: the stored summary with its decay applied. */
export function trustAt(summary: TrustSummary, now: Date): Trust {
  const decay = summary.decay_from ? decayFactor(new Date(summary.decay_from), now) : 0;
  return {
    confidence: roundConfidence(summary.bound * decay),
    confirmations: summary.confirmations,
    disputed: summary.disputed,
    last_confirmed_at: summary.last_confirmed_at,
    basis: basisOf(summary.revision, summary.confirmations, summary.disputed),
    revision: summary.revision,
    counter_evidence: summary.counter_evidence,
  };
}

/** The full `trust` of a solution revision as of `now`. */
export function assessTrust(input: TrustInput, now: Date): Trust {
  return trustAt(summarizeTrust(input), now);
}

/** A problem's trust: whether its revision is disputed, with the counter-evidence (problems get no outcomes). */
export function assessProblemTrust(input: TrustInput): ProblemTrust {
  const dispute = assessDispute(input);
  return {
    disputed: dispute.disputed,
    basis:
      `Disputed when at least ${R.disputeMinIndependent} independent identities (the author's group excluded;` +
      ` identities admitted from one address within ${R.admissionWindowSeconds / 60} minutes count once)` +
      ` filed report_failure or report_outdated against revision ${input.revision}.`,
    revision: dispute.revision,
    counter_evidence: dispute.counter_evidence,
  };
}

/** One sentence saying how the confidence was computed, with this record's numbers. */
function basisOf(revision: number, t: Confirmations, disputed: boolean): string {
  const n = t.independent;
  const minutes = R.admissionWindowSeconds / 60;
  return (
    `Lower bound of the Wilson score interval (z = ${R.wilsonZ})` +
    ` for ${t.worked} worked and ${t.partially_worked} partially worked (counted as ${R.partialCredit})` +
    ` among ${n} independent confirmer${n === 1 ? '' : 's'} of revision ${revision}` +
    ` (each identity's latest report; the author's excluded; identities admitted from one address` +
    ` within ${minutes} minutes count once), halved every ${R.halfLifeDays} days since the last independent worked report` +
    (disputed ? `, and multiplied by ${R.disputedFactor} because the revision is disputed.` : '.')
  );
}
