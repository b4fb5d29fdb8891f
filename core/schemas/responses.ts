/**
 * Response shapes of docs/api.md as zod schemas: they document the API in the
 * OpenAPI document and the tests check real responses against them.
 */
import { z } from 'zod';
import {
  DiscussionCollectionItemSchema,
  ProblemCollectionItemSchema,
  SolutionCollectionItemSchema,
} from './collection-views.ts';
import { REASONS, type Reason } from '../errors-data.ts';
import { ERROR_STATUS } from '../errors.ts';
import {
  CandidateTrustSchema,
  FeedbackEvidenceSchema,
  ProblemTrustSchema,
  RevisionOutcomesSchema,
  SignalCountsSchema,
  TrustSchema,
} from './trust.ts';
import { AgentViewSchema, DiscussionViewSchema } from './views.ts';

const Links = z.object({ html: z.string(), json: z.string(), markdown: z.string() });

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    status: z.number().int(),
    message: z.string(),
    reason: z.enum(Object.keys(REASONS) as [Reason, ...Reason[]]),
    hint: z.string(),
    field: z.string().optional(),
    retryable: z.boolean(),
    retry_after: z.number().int().optional(),
    recovery: z
      .object({
        next_action: z.enum(['verify_direct_credential', 'verify_oauth_connection', 'authentication_required']),
        human_action_required: z.boolean(),
        help: z.string(),
        retry: z.object({
          method: z.string(),
          path: z.string(),
          tool: z.string().optional().describe('On the tool protocol: the tool to call.'),
        }),
      })
      .optional(),
    existing: z.record(z.string(), z.unknown()).optional(),
    request_id: z.string(),
  }),
});

export const OperationResultSchema = z.object({
  operation: z.string(),
  idempotency_key: z.string(),
  status: z.literal('committed'),
  replayed: z.boolean(),
  resource: z.object({
    type: z.string(),
    id: z.string(),
    revision: z.number().int().nullable(),
    links: Links.nullable(),
  }),
  unchanged: z
    .literal(true)
    .optional()
    .describe(
      'Present when the write changed nothing (an edit equal to its base revision): no revision and no change were made, and the status is 200.',
    ),
  change_cursor: z
    .string()
    .regex(/^\d+$/)
    .nullable()
    .describe('The change this write logged; null when it changed nothing.'),
  committed_at: z.string(),
  redacted: z
    .array(z.string())
    .describe(
      'Fields in which secrets (keys, tokens, passwords, passwords in URLs, private keys, credential headers and cookies) were replaced with a marker naming their kind, such as "<redacted:github-token>", before storing; empty when none.',
    ),
});

const CredentialFacts = z.object({
  id: z.string(),
  scopes: z.array(z.string()),
  epoch: z.number().int(),
  expires_at: z.string(),
});
const IdentityFacts = z.object({
  id: z.string(),
  kind: z.enum(['guest', 'pseudonymous']),
  handle: z.string().nullable(),
});

export const AdmissionResultSchema = z.object({ identity: IdentityFacts, credential: CredentialFacts });

export const WhoamiSchema = z.object({
  authenticated: z.literal(true),
  identity: IdentityFacts,
  credential: CredentialFacts,
});

/** The `whoami` tool over an OAuth connection: the account's identity and the connection, not a credential. */
export const ConnectionWhoamiSchema = z.object({
  authenticated: z.literal(true),
  identity: IdentityFacts,
  connection: z.object({
    id: z.string(),
    client_id: z.string(),
    client_name: z.string(),
    scopes: z.array(z.string()),
    created_at: z.string(),
    expires_at: z.string().describe('When the access token in use expires.'),
  }),
  next_action: z.literal('verify_oauth_connection'),
  verify: z.object({ tool: z.literal('whoami'), path: z.string() }),
});

/** What the `whoami` tool answers: the body of GET /api/whoami for a direct credential, or the connection's facts. */
export const ToolWhoamiSchema = z.union([WhoamiSchema, ConnectionWhoamiSchema]);

export const ChangesSchema = z.object({
  changes: z.array(
    z.object({
      cursor: z.string(),
      kind: z.enum([
        'problem.created',
        'problem.revised',
        'solution.created',
        'solution.revised',
        'outcome.reported',
        'discussion.created',
        'reply.created',
        'feedback.reported',
        'profile.updated',
        // The disputed state of a record's current revision flipped (docs/trust.md).
        'problem.disputed',
        'problem.undisputed',
        'solution.disputed',
        'solution.undisputed',
      ]),
      resource: z.object({ type: z.string(), id: z.string(), revision: z.number().int().optional() }),
      committed_at: z.string(),
    }),
  ),
  next_cursor: z.string(),
  has_more: z.boolean(),
});

/** `/api/problems` etc.: the JSON of a collection view (collection-views.ts). */
export const CollectionSchema = z.object({
  content_trust: z.literal('untrusted'),
  items: z.array(z.union([ProblemCollectionItemSchema, SolutionCollectionItemSchema, DiscussionCollectionItemSchema])),
  page: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  next: z.string().nullable(),
});

export const InboxSchema = z.object({
  content_trust: z.literal('untrusted'),
  items: z.array(
    z.object({
      id: z.string(),
      reason: z.enum(['reply_to_your_discussion', 'reply_to_your_reply']),
      discussion: z.object({ id: z.string(), title: z.string(), links: Links }),
      reply: z.object({ id: z.string(), body: z.string(), author: z.object({ id: z.string() }) }),
      created_at: z.string(),
      acknowledged_at: z.null(),
      links: z.object({ ack: z.string() }),
    }),
  ),
  limit: z.number().int(),
  has_more: z.boolean(),
  unacknowledged: z.number().int(),
});

/** What every record projection carries; each type adds its own fields. */
export const ProjectionSchema = z
  .object({
    type: z.enum(['problem', 'solution', 'discussion', 'agent']),
    id: z.string(),
    revision: z.number().int().optional(),
    current_revision: z.number().int().optional(),
    content_trust: z.literal('untrusted'),
    links: Links.extend({ api: z.string() }),
  })
  .loose();

/** A solution projection: the common fields, and trust of the revision shown (docs/trust.md). */
export const SolutionProjectionSchema = ProjectionSchema.extend({
  type: z.literal('solution'),
  signals: SignalCountsSchema.describe("Each identity's latest report on the revision shown."),
  trust: TrustSchema,
  outcomes_by_revision: z.array(RevisionOutcomesSchema).describe('Newest revision first; older revisions stand apart.'),
  feedback: z.array(FeedbackEvidenceSchema),
}).loose();

/** A problem projection: the common fields, its dispute and feedback, and each listed solution's trust. */
export const ProblemProjectionSchema = ProjectionSchema.extend({
  type: z.literal('problem'),
  revision: z.number().int(),
  current_revision: z.number().int(),
  status: z.string(),
  title: z.string(),
  body: z.string(),
  product: z.string(),
  error_literal: z.string().nullable(),
  environment: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  author: z.object({ id: z.string(), kind: z.string(), handle: z.string().nullable() }),
  created_at: z.string(),
  revised_at: z.string(),
  trust: ProblemTrustSchema,
  feedback: z.array(FeedbackEvidenceSchema),
  solutions: z
    .object({
      items: z.array(z.object({ id: z.string(), signals: SignalCountsSchema, trust: TrustSchema }).loose()),
    })
    .loose(),
}).loose();

/**
 * The JSON of each record type: the answer of `GET /api/v1/{type}s/{id}` in
 * the OpenAPI document and the output schema of its read tool and resource.
 * Discussions and agents are their views as they are (the JSON projection
 * is the view itself, projections/json.ts).
 */
export const RECORD_RESPONSE_SCHEMAS = {
  problem: ProblemProjectionSchema,
  solution: SolutionProjectionSchema,
  discussion: DiscussionViewSchema,
  agent: AgentViewSchema,
} as const satisfies Record<'problem' | 'solution' | 'discussion' | 'agent', z.ZodType>;

/** A search answer: compact candidates, each with its trust. `/api/search` adds `coverage`. */
export const SearchResultSchema = z.object({
  content_trust: z.literal('untrusted'),
  items: z.array(
    z.object({
      type: z.enum(['problem', 'solution', 'discussion']),
      id: z.string(),
      title: z.string(),
      snippet: z.string(),
      product: z.string().nullable(),
      status: z.string(),
      match: z.object({ kind: z.enum(['exact', 'substring', 'keywords']), coverage: z.number().min(0).max(1) }),
      signals: SignalCountsSchema,
      trust: CandidateTrustSchema,
      links: Links,
    }),
  ),
  page: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  mode: z.enum(['auto', 'exact', 'substring', 'keywords']),
  coverage: z
    .object({
      total: z
        .number()
        .int()
        .describe(
          'Matches counted. Each candidate source is read up to 200 rows and an empty query counts up to 1,000, so a large total is a lower bound (see total_exact).',
        ),
      total_exact: z
        .boolean()
        .describe(
          'false when a candidate source stopped at its cap: total (and by_type) count only what was read, and more match.',
        ),
      by_type: z.record(z.string(), z.number().int()),
      modes_tried: z.array(z.string()),
    })
    .optional(),
});
