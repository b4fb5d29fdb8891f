/**
 * One write tool per entry of OPERATIONS, named after the operation.
 * Its arguments are the operation's body fields, plus `idempotency_key`
 * (what HTTP sends as the Idempotency-Key header) and, for operations on an
 * existing record, `id` (what HTTP has in the path). A call goes through the
 * same "authorise and submit a write" as the HTTP route, so the two share
 * idempotency: the same identity and key replay across both.
 */
import { z } from 'zod';
import { IdempotencyKeySchema } from '../../core/schemas/fields.ts';
import { authorizationOf } from '../auth.ts';
import { parseOrThrow } from '../http/validation.ts';
import type { RegisteredOperation } from '../../operations/registry.ts';
import type { SubmitAuthorisedWrite } from '../writes/write-submission.ts';
import { requireDirectCredential } from './connection-auth.ts';
import { inputSchemaOf, type InputSchema, type Tool } from './tool.ts';

/** These act on the presented direct credential, which an OAuth connection does not have. */
const DIRECT_CREDENTIAL_OPERATIONS = new Set(['rotate_own_credential', 'revoke_own_credential']);

const KeyArgSchema = z.object({
  idempotency_key: IdempotencyKeySchema.describe('Resending it replays the receipt.'),
});

const TargetArgSchema = z.strictObject({
  id: z.string().min(1).max(64),
});

/** The HTTP route as documentation writes it, e.g. `PATCH /api/problems/{id}`. */
const httpRouteOf = (spec: RegisteredOperation) => `${spec.method} ${spec.path.replace(/:(\w+)/g, '{$1}')}`;

/** The body's JSON Schema with the key (and the target) added as required arguments. */
function writeInputSchema(spec: RegisteredOperation): InputSchema {
  const body = inputSchemaOf(spec.schema);
  const added: Record<string, object> = { ...inputSchemaOf(KeyArgSchema).properties };
  if (spec.param) Object.assign(added, inputSchemaOf(TargetArgSchema).properties);
  const clash = Object.keys(added).find((name) => name in (body.properties ?? {}));
  if (clash) throw new Error(`${spec.name}: a body field is named ${clash}, which the write tool uses for itself`);
  return {
    ...body,
    properties: { ...added, ...body.properties },
    required: [...Object.keys(added), ...(body.required ?? [])],
  };
}

/** The arguments as HTTP would have them: the target apart, the key dropped (it was read already). */
function splitArguments(
  spec: RegisteredOperation,
  args: Record<string, unknown>,
): { targetId?: string; body: unknown } {
  const { idempotency_key: _key, ...rest } = args;
  if (!spec.param) return { body: rest };
  const { [spec.param]: target, ...body } = rest;
  return { targetId: parseOrThrow(TargetArgSchema, { id: target }, 'arguments').id, body };
}

/**
 * Only what differs from the protocol's defaults: writes add records (never
 * destroy), keyed, closed world. No output schema: every write answers the
 * same receipt (OpenAPI OperationResult), which the help resource and the
 * server instructions name once rather than twelve times in tools/list.
 */
const WRITE = { destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const firstSentence = (text: string) => `${text.split('. ')[0]!.replace(/\.$/, '')}.`;
/** "create_problem" → "Create problem". */
const titleOf = (spec: RegisteredOperation) => `${spec.name[0]!.toUpperCase()}${spec.name.slice(1).replace(/_/g, ' ')}`;

export function createWriteTool(submit: SubmitAuthorisedWrite, spec: RegisteredOperation): Tool {
  return {
    definition: {
      name: spec.name,
      title: titleOf(spec),
      description: `${firstSentence(spec.summary)} Scope: ${spec.scopes.join(' or ')}.`,
      inputSchema: writeInputSchema(spec),
      annotations: WRITE,
    },
    help: `${spec.summary} Needs a bearer credential with the scope ${spec.scopes.join(' or ')}. The same operation as ${httpRouteOf(spec)}; it answers the committed receipt ("replayed": true when the key was already committed, over either protocol). idempotency_key is "<client>:<operation id>" (1-64 and 8-128 characters of A-Z a-z 0-9 _ -), the value HTTP sends as Idempotency-Key: resending it with the same arguments replays the receipt; never reuse it for a different write.`,
    async run(args, { c, requestId }) {
      const caller = c.get('toolCaller');
      if (caller && DIRECT_CREDENTIAL_OPERATIONS.has(spec.name)) requireDirectCredential(caller, spec.name);
      const answer = await submit(c, spec, {
        channel: 'tool',
        authorization: authorizationOf(c),
        credential: caller,
        idempotencyKey: args.idempotency_key,
        readInput: async () => splitArguments(spec, args),
        requestId,
      });
      return { ...answer.receipt };
    },
  };
}
