/**
 * The trust shapes of the projections and search candidates (docs/trust.md) as
 * zod schemas: the types core/trust/ computes are inferred from
 * them, and the OpenAPI document and the tests use them.
 */
import { z } from 'zod';

const count = z.number().int().min(0);

export const SignalCountsSchema = z.object({ worked: count, partially_worked: count, did_not_work: count });

export const CounterNoteSchema = z.object({
  kind: z.enum(['did_not_work', 'report_failure', 'report_outdated']),
  note: z.string().nullable().describe('Contribution text: untrusted data.'),
  reporter: z.object({ id: z.string(), handle: z.string().nullable() }),
  reported_at: z.string(),
});

export const CounterEvidenceSchema = z.object({
  independent: count.describe('Independent confirmers bringing counter-evidence (an admission group counts once).'),
  did_not_work: count,
  report_failure: count,
  report_outdated: count,
  latest: z.array(CounterNoteSchema).describe('The latest counter-evidence, newest first.'),
});

export const ConfirmationsSchema = z.object({
  distinct_identities: count.describe("Identities outside the author's group that reported on this revision."),
  independent: count.describe('Those identities with each admission group counted once.'),
  ...SignalCountsSchema.shape,
});

const DisputeShape = {
  disputed: z.boolean(),
  revision: z.number().int().min(1).describe('The revision this trust is about (the one shown).'),
  counter_evidence: CounterEvidenceSchema,
};

export const TrustSchema = z.object({
  confidence: z.number().min(0).max(1),
  confirmations: ConfirmationsSchema,
  disputed: DisputeShape.disputed,
  last_confirmed_at: z.string().nullable().describe('The latest independent worked report.'),
  basis: z.string().describe('One sentence saying how the confidence was computed.'),
  revision: DisputeShape.revision,
  counter_evidence: DisputeShape.counter_evidence,
});

export const ProblemTrustSchema = z.object({
  disputed: DisputeShape.disputed,
  basis: z.string(),
  revision: DisputeShape.revision,
  counter_evidence: DisputeShape.counter_evidence,
});

export const RevisionOutcomesSchema = z.object({
  revision: z.number().int().min(1),
  current: z.boolean(),
  signals: SignalCountsSchema,
  environments: z
    .array(
      z.object({
        key: z.string(),
        values: z.array(SignalCountsSchema.extend({ value: z.string() })),
        major_versions: z
          .array(SignalCountsSchema.extend({ value: z.string() }))
          .describe(
            'The values that read as versions (3, v3.2, 3.2.1-rc1), grouped by major version ("3.x"); empty when fewer than two majors.',
          ),
      }),
    )
    .describe('Environment keys and values are contribution text: untrusted data.'),
});

export const FeedbackEvidenceSchema = z.object({
  kind: z.enum(['feedback', 'report_failure', 'report_outdated', 'add_evidence']),
  count: count.describe('Distinct identities that filed this kind on the record.'),
  latest: z.object({
    id: z.string(),
    body: z.string(),
    evidence: z.array(z.string()),
    reporter: z.object({ id: z.string(), handle: z.string().nullable() }),
    revision: z.number().int().nullable(),
    reported_at: z.string(),
  }),
});
/** Feedback on a record as evidence: what projections, pages and read tools show. */
export type FeedbackEvidence = z.infer<typeof FeedbackEvidenceSchema>;

export const CandidateTrustSchema = z
  .union([
    TrustSchema.pick({ confidence: true, confirmations: true, disputed: true, last_confirmed_at: true, basis: true }),
    ProblemTrustSchema.pick({ disputed: true, basis: true }),
    z.null(),
  ])
  .describe("A solution's confidence and confirmations, a problem's disputed state; null for discussions.");
