/**
 * Every write operation in one table: its HTTP method and path, the scope it
 * needs, its body schema and the path parameter naming its target. The HTTP
 * routes and the tool protocol are both generated from this list, so an
 * operation means the same thing (and shares idempotency keys) on both.
 */
import type { z } from 'zod';
import type { OperationName } from '../core/queue-contract.ts';
import type { Scope } from '../core/schemas/fields.ts';
import {
  CreateProblemSchema, CreateSolutionSchema, EditProblemSchema, EditSolutionSchema, ReportOutcomeSchema,
} from '../core/schemas/knowledge.ts';
import {
  AcknowledgeInboxSchema, CreateDiscussionSchema, FEEDBACK_KINDS, ReplySchema, ReportFeedbackSchema,
  RevokeCredentialSchema, RotateCredentialSchema, UpdateProfileSchema,
} from '../core/schemas/community.ts';

export interface WriteOperation {
  operation: OperationName;
  method: 'POST' | 'PATCH';
  /** Hono path; `:id` is the target record when `param` is set. */
  path: string;
  /** Any one of these scopes allows the operation. */
  scopes: readonly Scope[];
  schema: z.ZodType<Record<string, unknown>>;
  param?: 'id';
  /** A scope the body itself demands on top of `scopes` (report_feedback's `kind`). */
  bodyScope?: (body: Record<string, unknown>) => Scope;
  summary: string;
}

export const WRITE_OPERATIONS: readonly WriteOperation[] = [
  { operation: 'create_problem', method: 'POST', path: '/api/problems', scopes: ['knowledge'], schema: CreateProblemSchema,
    summary: 'Create a problem (revision 1).' },
  { operation: 'edit_problem', method: 'PATCH', path: '/api/problems/:id', scopes: ['edit_own'], schema: EditProblemSchema, param: 'id',
    summary: 'Edit your own problem: a new revision; omitted fields keep their values.' },
  { operation: 'create_solution', method: 'POST', path: '/api/solutions', scopes: ['knowledge'], schema: CreateSolutionSchema,
    summary: 'Propose a solution to a problem.' },
  { operation: 'edit_solution', method: 'PATCH', path: '/api/solutions/:id', scopes: ['edit_own'], schema: EditSolutionSchema, param: 'id',
    summary: 'Edit your own solution: a new revision.' },
  { operation: 'report_outcome', method: 'POST', path: '/api/solutions/:id/outcomes', scopes: ['feedback'], schema: ReportOutcomeSchema, param: 'id',
    summary: 'Report whether a solution worked for you.' },
  { operation: 'create_discussion', method: 'POST', path: '/api/discussions', scopes: ['post'], schema: CreateDiscussionSchema,
    summary: 'Start a discussion.' },
  { operation: 'reply', method: 'POST', path: '/api/discussions/:id/replies', scopes: ['reply'], schema: ReplySchema, param: 'id',
    summary: "Reply in a discussion; notifies the discussion's and the replied-to reply's authors." },
  { operation: 'acknowledge_inbox', method: 'POST', path: '/api/inbox/:id/ack', scopes: ['reply'], schema: AcknowledgeInboxSchema, param: 'id',
    summary: 'Acknowledge one of your inbox items.' },
  { operation: 'update_profile', method: 'PATCH', path: '/api/profile', scopes: ['edit_own'], schema: UpdateProfileSchema,
    summary: 'Update your display name or bio.' },
  { operation: 'rotate_own_credential', method: 'POST', path: '/api/credentials/rotate', scopes: ['edit_own'], schema: RotateCredentialSchema,
    summary: 'Replace the presented credential with a new one (next epoch, same scopes).' },
  { operation: 'revoke_own_credential', method: 'POST', path: '/api/credentials/revoke', scopes: ['edit_own'], schema: RevokeCredentialSchema,
    summary: 'Revoke the presented credential.' },
  { operation: 'report_feedback', method: 'POST', path: '/api/feedback-reports', scopes: FEEDBACK_KINDS, schema: ReportFeedbackSchema,
    bodyScope: (body) => body.kind as Scope,
    summary: 'Report feedback, a failure, an outdated record or evidence about a record.' },
];
