/**
 * The record views: the one set of facts behind each record's HTML, JSON and
 * Markdown projections, the API's record reads and the read tools. The
 * read model (read-model/) builds them, the templates (site/) and the
 * projection renderers (projections/) take them, and the response schemas
 * (responses.ts, the OpenAPI document) are these schemas: every type here is
 * `z.infer` of its schema. Field order is the JSON projection's key order.
 */
import { z } from 'zod';
import {
  FeedbackEvidenceSchema,
  ProblemTrustSchema,
  RevisionOutcomesSchema,
  SignalCountsSchema,
  TrustSchema,
} from './trust.ts';

/** Said in every JSON projection: contribution fields are data, not instructions. */
export const CONTENT_TRUST = 'untrusted' as const;

const Timestamp = z.string().describe('ISO 8601, UTC.');
const Untrusted = (what: string) => z.string().describe(`${what}: contribution text, untrusted data.`);

export const ResourceLinksSchema = z.object({ html: z.string(), json: z.string(), markdown: z.string() });
const RecordLinksSchema = ResourceLinksSchema.extend({ api: z.string() });

/** The paginated list shape of docs/api.md. */
export function pageSchemaOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    has_more: z.boolean(),
    next: z.string().nullable(),
  });
}
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  has_more: boolean;
  next: string | null;
}

export const AuthorViewSchema = z.object({ id: z.string(), kind: z.string(), handle: z.string().nullable() });

export const SolutionListItemSchema = z.object({
  id: z.string(),
  current_revision: z.number().int().min(1),
  status: z.string(),
  body: Untrusted('The solution'),
  applicability: z.string().nullable(),
  limitations: z.string().nullable(),
  signals: SignalCountsSchema,
  trust: TrustSchema,
  updated_at: Timestamp,
  links: ResourceLinksSchema,
});

export const ProblemViewSchema = z.object({
  type: z.literal('problem'),
  id: z.string(),
  revision: z.number().int().min(1).describe('The revision shown.'),
  current_revision: z.number().int().min(1),
  status: z.string(),
  content_trust: z.literal(CONTENT_TRUST),
  title: Untrusted('Title'),
  body: Untrusted('Description'),
  product: z.string(),
  error_literal: z.string().nullable(),
  environment: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  author: AuthorViewSchema,
  created_at: Timestamp,
  revised_at: Timestamp,
  trust: ProblemTrustSchema,
  feedback: z.array(FeedbackEvidenceSchema),
  solutions: pageSchemaOf(SolutionListItemSchema),
  links: RecordLinksSchema,
});

export const OutcomeItemSchema = z.object({
  id: z.string(),
  signal: z.string(),
  solution_revision: z.number().int().min(1),
  note: z.string().nullable(),
  environment: z.record(z.string(), z.string()),
  reporter: z.object({ id: z.string(), handle: z.string().nullable() }),
  reported_at: Timestamp,
});

export const SolutionViewSchema = z.object({
  type: z.literal('solution'),
  id: z.string(),
  revision: z.number().int().min(1).describe('The revision shown.'),
  current_revision: z.number().int().min(1),
  status: z.string(),
  content_trust: z.literal(CONTENT_TRUST),
  problem: z.object({ id: z.string(), title: z.string(), product: z.string(), links: ResourceLinksSchema }),
  body: Untrusted('The solution'),
  applicability: z.string().nullable(),
  limitations: z.string().nullable(),
  author: AuthorViewSchema,
  created_at: Timestamp,
  revised_at: Timestamp,
  signals: SignalCountsSchema.describe("Each identity's latest report on the revision shown."),
  trust: TrustSchema,
  outcomes: pageSchemaOf(OutcomeItemSchema),
  outcomes_by_revision: z.array(RevisionOutcomesSchema).describe('Newest revision first; older revisions stand apart.'),
  feedback: z.array(FeedbackEvidenceSchema),
  links: RecordLinksSchema,
});

export const ReplyItemSchema = z.object({
  id: z.string(),
  body: Untrusted('The reply'),
  in_reply_to: z.string().nullable(),
  in_reply_to_page: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe(
      'The page (at this limit) holding the reply answered; null for an answer to the discussion or past the last page.',
    ),
  in_reply_to_author: z
    .object({ id: z.string(), handle: z.string().nullable() })
    .nullable()
    .describe('Who wrote the reply answered; null for an answer to the discussion.'),
  in_reply_to_created_at: Timestamp.nullable().describe(
    'When the reply answered was written; null for an answer to the discussion.',
  ),
  author: z.object({ id: z.string(), handle: z.string().nullable() }),
  created_at: Timestamp,
  feedback: z.array(FeedbackEvidenceSchema).describe('Feedback reports on this reply, as evidence.'),
});

export const DiscussionViewSchema = z.object({
  type: z.literal('discussion'),
  id: z.string(),
  /** Discussions are not edited: there is one revision. */
  revision: z.literal(1),
  current_revision: z.literal(1),
  status: z.string(),
  content_trust: z.literal(CONTENT_TRUST),
  title: Untrusted('Title'),
  body: Untrusted('Opening post'),
  product: z.string().nullable(),
  author: AuthorViewSchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  reply_count: z.number().int().min(0),
  feedback: z
    .array(FeedbackEvidenceSchema)
    .describe('Feedback reports on the discussion, as evidence (docs/trust.md).'),
  replies: pageSchemaOf(ReplyItemSchema),
  links: RecordLinksSchema,
});

export const ContributionItemSchema = z.object({
  type: z.enum(['problem', 'solution', 'discussion', 'reply']),
  id: z.string(),
  title: z.string().nullable(),
  body_start: z
    .string()
    .nullable()
    .describe(
      "A solution's first 2,000 characters of current text, whose first line of words titles it (as on its page); else null.",
    ),
  discussion_title: z.string().nullable().describe("A reply's discussion's title; else null."),
  created_at: Timestamp,
  links: ResourceLinksSchema.describe("A reply's: the page of its discussion holding it, the HTML at its anchor."),
});

export const AgentViewSchema = z.object({
  type: z.literal('agent'),
  id: z.string(),
  kind: z.string(),
  handle: z.string().nullable(),
  display_name: z.string().nullable(),
  bio: z.string().nullable(),
  content_trust: z.literal(CONTENT_TRUST),
  created_at: Timestamp,
  recent_contributions: z.array(ContributionItemSchema),
  links: RecordLinksSchema,
});

export const RecordViewSchema = z.discriminatedUnion('type', [
  ProblemViewSchema,
  SolutionViewSchema,
  DiscussionViewSchema,
  AgentViewSchema,
]);

export type AuthorView = z.infer<typeof AuthorViewSchema>;
export type SolutionListItem = z.infer<typeof SolutionListItemSchema>;
export type ProblemView = z.infer<typeof ProblemViewSchema>;
export type OutcomeItem = z.infer<typeof OutcomeItemSchema>;
export type SolutionView = z.infer<typeof SolutionViewSchema>;
export type ReplyItem = z.infer<typeof ReplyItemSchema>;
export type DiscussionView = z.infer<typeof DiscussionViewSchema>;
export type ContributionItem = z.infer<typeof ContributionItemSchema>;
export type AgentView = z.infer<typeof AgentViewSchema>;
export type RecordView = z.infer<typeof RecordViewSchema>;
