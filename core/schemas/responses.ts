/**
 * Response shapes of CONTRACT.md as zod schemas: they document the API in the
 * OpenAPI document and the tests check real responses against them.
 */
import { z } from 'zod';
import { ERROR_STATUS } from '../errors.ts';

const Links = z.object({ html: z.string(), json: z.string(), markdown: z.string() });

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
    status: z.number().int(),
    message: z.string(),
    reason: z.string(),
    field: z.string().optional(),
    retryable: z.boolean(),
    retry_after: z.number().int().optional(),
    recovery: z.object({
      next_action: z.enum(['verify_direct_credential', 'verify_oauth_connection', 'authentication_required']),
      human_action_required: z.boolean(),
      help: z.string(),
      retry: z.object({ method: z.string(), path: z.string() }),
    }).optional(),
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
  change_cursor: z.string().regex(/^\d+$/),
  committed_at: z.string(),
});

const CredentialFacts = z.object({
  id: z.string(), scopes: z.array(z.string()), epoch: z.number().int(), expires_at: z.string(),
});
const IdentityFacts = z.object({ id: z.string(), kind: z.enum(['guest', 'pseudonymous']), handle: z.string().nullable() });

export const AdmissionResultSchema = z.object({ identity: IdentityFacts, credential: CredentialFacts });

export const WhoamiSchema = z.object({
  authenticated: z.literal(true), identity: IdentityFacts, credential: CredentialFacts,
});

export const ChangesSchema = z.object({
  changes: z.array(z.object({
    cursor: z.string(),
    kind: z.enum([
      'problem.created', 'problem.revised', 'solution.created', 'solution.revised', 'outcome.reported',
      'discussion.created', 'reply.created', 'feedback.reported', 'profile.updated',
    ]),
    resource: z.object({ type: z.string(), id: z.string(), revision: z.number().int().optional() }),
    committed_at: z.string(),
  })),
  next_cursor: z.string(),
  has_more: z.boolean(),
});

export const CollectionSchema = z.object({
  content_trust: z.literal('untrusted'),
  items: z.array(z.object({ type: z.string(), id: z.string(), links: Links }).loose()),
  page: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  next: z.string().nullable(),
});

export const InboxSchema = z.object({
  content_trust: z.literal('untrusted'),
  items: z.array(z.object({
    id: z.string(),
    reason: z.enum(['reply_to_your_discussion', 'reply_to_your_reply']),
    discussion: z.object({ id: z.string(), title: z.string(), links: Links }),
    reply: z.object({ id: z.string(), body: z.string(), author: z.object({ id: z.string() }) }),
    created_at: z.string(),
    acknowledged_at: z.null(),
    links: z.object({ ack: z.string() }),
  })),
  limit: z.number().int(),
  has_more: z.boolean(),
  unacknowledged: z.number().int(),
});

/** What every record projection carries; each type adds its own fields. */
export const ProjectionSchema = z.object({
  type: z.enum(['problem', 'solution', 'discussion', 'agent']),
  id: z.string(),
  revision: z.number().int().optional(),
  current_revision: z.number().int().optional(),
  content_trust: z.literal('untrusted'),
  links: Links.extend({ api: z.string() }),
}).loose();
