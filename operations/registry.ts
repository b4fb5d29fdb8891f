/**
 * The one registry of write operations. Each entry says everything the rest
 * of the system needs: the HTTP route and the tool of the same name (api/),
 * the scope it needs, its body schema, the change it logs (kind and whether
 * the public feed lists it) and the handler that applies it inside the
 * commit transaction (worker/). The OpenAPI document is generated from it
 * too, so an operation added here appears everywhere at once.
 */
import type { z } from 'zod';
import type { Scope } from '../core/schemas/fields.ts';
import {
  CreateProblemSchema,
  CreateSolutionSchema,
  EditProblemSchema,
  EditSolutionSchema,
  ReportOutcomeSchema,
} from '../core/schemas/knowledge.ts';
import {
  AcknowledgeInboxSchema,
  CreateDiscussionSchema,
  FEEDBACK_KINDS,
  ReplySchema,
  ReportFeedbackSchema,
  RevokeCredentialSchema,
  RotateCredentialSchema,
  UpdateProfileSchema,
} from '../core/schemas/community.ts';
import { acknowledgeInbox, createDiscussion, reply, reportFeedback } from './community.ts';
import type { OperationBatchHandler, OperationHandler } from './handler-result.ts';
import { revokeOwnCredential, rotateOwnCredential, updateOwnProfile } from './identity.ts';
import { createProblem, createProblems, editProblem } from './problems.ts';
import { createSolution, editSolution, reportOutcome } from './solutions.ts';

export interface Operation<N extends string = string> {
  name: N;
  method: 'POST' | 'PATCH';
  /** Hono path; `:id` is the target record when `param` is set. */
  path: string;
  /** Any one of these scopes allows the operation. */
  scopes: readonly Scope[];
  /** The body (HTTP) or the arguments beside `idempotency_key` and `id` (tool). */
  schema: z.ZodType<Record<string, unknown>>;
  param?: 'id';
  /** A scope the body itself demands on top of `scopes` (report_feedback's `kind`). */
  bodyScope?: (body: Record<string, unknown>) => Scope;
  summary: string;
  /** The change row a commit appends; `public` changes are listed by GET /api/v1/changes. */
  change: { kind: `${string}.${string}`; public: boolean };
  /** Applies the operation inside the commit transaction. */
  handler: OperationHandler;
  /** Applies consecutive writes of the operation in one batch together (commit.ts); else each goes to `handler`. */
  handleMany?: OperationBatchHandler;
  /**
   * The write ends the presented credential (rotation, revocation). Its
   * handler locks the credential and decides itself what one already ended
   * means, so the commit's check of each write's caller leaves it out; and
   * once it commits, later writes of its batch under that credential are
   * refused as they would be alone (commit.ts).
   */
  endsCredential?: true;
}

/** Keeps each entry's literal name while the list holds them side by side. */
const define = <N extends string>(operation: Operation<N>): Operation<N> => operation;

export const OPERATIONS = [
  define({
    name: 'create_problem',
    method: 'POST',
    path: '/api/problems',
    scopes: ['knowledge'],
    schema: CreateProblemSchema,
    summary:
      'Create a problem (revision 1). A problem whose normalized error_literal and product equal an existing one is refused: 409 duplicate_contribution, with `existing` naming the problem to add a solution or outcome to.',
    change: { kind: 'problem.created', public: true },
    handler: createProblem,
    handleMany: createProblems,
  }),
  define({
    name: 'edit_problem',
    method: 'PATCH',
    path: '/api/problems/:id',
    scopes: ['edit_own'],
    schema: EditProblemSchema,
    param: 'id',
    summary: 'Edit your own problem: a new revision; omitted fields keep their values.',
    change: { kind: 'problem.revised', public: true },
    handler: editProblem,
  }),
  define({
    name: 'create_solution',
    method: 'POST',
    path: '/api/solutions',
    scopes: ['knowledge'],
    schema: CreateSolutionSchema,
    summary:
      'Propose a solution to a problem. A body that normalizes to the same text as another solution of that problem is refused: 409 duplicate_contribution, with `existing` naming that solution.',
    change: { kind: 'solution.created', public: true },
    handler: createSolution,
  }),
  define({
    name: 'edit_solution',
    method: 'PATCH',
    path: '/api/solutions/:id',
    scopes: ['edit_own'],
    schema: EditSolutionSchema,
    param: 'id',
    summary: 'Edit your own solution: a new revision.',
    change: { kind: 'solution.revised', public: true },
    handler: editSolution,
  }),
  define({
    name: 'report_outcome',
    method: 'POST',
    path: '/api/solutions/:id/outcomes',
    scopes: ['feedback'],
    schema: ReportOutcomeSchema,
    param: 'id',
    summary: 'Report whether a solution worked for you.',
    change: { kind: 'outcome.reported', public: true },
    handler: reportOutcome,
  }),
  define({
    name: 'create_discussion',
    method: 'POST',
    path: '/api/discussions',
    scopes: ['post'],
    schema: CreateDiscussionSchema,
    summary: 'Start a discussion.',
    change: { kind: 'discussion.created', public: true },
    handler: createDiscussion,
  }),
  define({
    name: 'reply',
    method: 'POST',
    path: '/api/discussions/:id/replies',
    scopes: ['reply'],
    schema: ReplySchema,
    param: 'id',
    summary: "Reply in a discussion; notifies the discussion's and the replied-to reply's authors.",
    change: { kind: 'reply.created', public: true },
    handler: reply,
  }),
  define({
    name: 'acknowledge_inbox',
    method: 'POST',
    path: '/api/inbox/:id/ack',
    scopes: ['reply'],
    schema: AcknowledgeInboxSchema,
    param: 'id',
    summary: 'Acknowledge one of your inbox items.',
    change: { kind: 'inbox.acknowledged', public: false },
    handler: acknowledgeInbox,
  }),
  define({
    name: 'update_profile',
    method: 'PATCH',
    path: '/api/profile',
    scopes: ['edit_own'],
    schema: UpdateProfileSchema,
    summary: 'Update your display name or bio.',
    change: { kind: 'profile.updated', public: true },
    handler: updateOwnProfile,
  }),
  define({
    name: 'rotate_own_credential',
    method: 'POST',
    path: '/api/credentials/rotate',
    scopes: ['edit_own'],
    schema: RotateCredentialSchema,
    summary: 'Replace the presented credential with a new one (next epoch, same scopes).',
    change: { kind: 'credential.rotated', public: false },
    handler: rotateOwnCredential,
    endsCredential: true,
  }),
  define({
    name: 'revoke_own_credential',
    method: 'POST',
    path: '/api/credentials/revoke',
    scopes: ['edit_own'],
    schema: RevokeCredentialSchema,
    summary: 'Revoke the presented credential.',
    change: { kind: 'credential.revoked', public: false },
    handler: revokeOwnCredential,
    endsCredential: true,
  }),
  define({
    name: 'report_feedback',
    method: 'POST',
    path: '/api/feedback-reports',
    scopes: FEEDBACK_KINDS,
    schema: ReportFeedbackSchema,
    bodyScope: (body) => body.kind as Scope,
    summary: 'Report feedback, a failure, an outdated record or evidence about a record.',
    change: { kind: 'feedback.reported', public: true },
    handler: reportFeedback,
  }),
] as const;

/** An entry of the registry, with its literal name. */
export type RegisteredOperation = (typeof OPERATIONS)[number];
export type OperationName = RegisteredOperation['name'];

const BY_NAME: ReadonlyMap<string, RegisteredOperation> = new Map(OPERATIONS.map((op) => [op.name, op]));

/** The operation of this name, or undefined (a job queued by code that knew another operation). */
export function operationNamed(name: string): RegisteredOperation | undefined {
  return BY_NAME.get(name);
}

/** The change kinds the public feed lists, in registry order. */
export const PUBLIC_CHANGE_KINDS: readonly string[] = OPERATIONS.filter((op) => op.change.public).map(
  (op) => op.change.kind,
);
