/**
 * The catalog of error reasons, in the manner of Astro's `errors-data.ts`:
 * every error the service answers is built from one entry here, and nowhere
 * else is a reason, a code or a message written.
 *
 * An entry's name is the wire `reason` (stable, snake_case, never renamed or
 * reused: clients branch on it). Each entry fixes the `code` (and so the
 * status), a `message` builder that says what happened, with the specifics
 * the call site passes, and a `hint` that says what to do about it. Add a
 * reason by adding an entry; retire one by leaving it in place unused.
 */
import type { ErrorCode } from './errors.ts';

interface ReasonEntry<P> {
  code: ErrorCode;
  message: (params: P) => string;
  hint: string;
}

/** One catalog entry; `P` is what its message needs from the call site. */
function entry<P = void>(code: ErrorCode, message: (params: P) => string, hint: string): ReasonEntry<P> {
  return { code, message, hint };
}

/** The subject ("limit", "the request body") and the validator's words, for zod failures. */
interface FieldProblem {
  subject: string;
  detail: string;
}

interface RateLimitHit {
  limit: number;
  windowSeconds: number;
  resetSeconds: number;
}

const fieldProblem = (p: FieldProblem) => `${p.subject}: ${p.detail}`;
const rateLimited = (what: string) => (p: RateLimitHit) =>
  `Too many ${what}: the limit is ${p.limit} per ${p.windowSeconds} s. Retry after ${p.resetSeconds} s.`;
const unknownRecord = (type: string) => (p: { id: string }) => `No ${type} has the id ${JSON.stringify(p.id)}.`;
const RATE_HINT = 'Wait the Retry-After seconds before the next request; do not retry in a loop.';
const UNKNOWN_HINT =
  'Check the id: ids are the ones the service returned (links in receipts and projections), of the right prefix.';

export const REASONS = {
  // 400 invalid_arguments: the request itself
  malformed_request: entry(
    'invalid_arguments',
    () =>
      'The request is not well-formed HTTP/1.1 (request line, target, Host, header names and values, or message framing).',
    'Fix the request and send it again.',
  ),
  headers_too_large: entry(
    'invalid_arguments',
    (p: { limitKiB: number }) =>
      `The request line and headers are larger than this server accepts (${p.limitKiB} KiB).`,
    'Send fewer or shorter headers.',
  ),
  missing_body: entry(
    'invalid_arguments',
    () => 'A JSON request body is required.',
    "Send the operation's JSON body with Content-Type: application/json.",
  ),
  invalid_json: entry(
    'invalid_arguments',
    () => 'The request body is not valid JSON.',
    'Send one JSON value encoded as UTF-8.',
  ),
  nul_character: entry(
    'invalid_arguments',
    (p: { subject: string }) => `${p.subject}: must not contain the NUL character (U+0000), which cannot be stored.`,
    'Remove the U+0000 characters from the named field and send the request again.',
  ),
  control_character: entry(
    'invalid_arguments',
    (p: { subject: string }) =>
      `${p.subject}: must not contain control characters other than tab, line feed and carriage return (a terminal's escape sequences, for example).`,
    'Remove the control characters (strip ANSI colour codes from pasted terminal output) and send the request again.',
  ),
  malformed_text: entry(
    'invalid_arguments',
    (p: { subject: string }) =>
      `${p.subject}: is not well-formed text (bytes that are not UTF-8, or a lone UTF-16 surrogate such as "\\ud800"), which cannot be stored.`,
    'Send the text as UTF-8, with every surrogate escape in JSON part of a pair.',
  ),
  bidi_control: entry(
    'invalid_arguments',
    (p: { subject: string }) =>
      `${p.subject}: must not contain bidirectional embedding, override or isolate controls (U+202A to U+202E, U+2066 to U+2069), which make text read differently from what is copied.`,
    'Remove those characters; right-to-left text needs none of them (U+200E and U+200F are allowed).',
  ),
  unstorable_value: entry(
    'invalid_arguments',
    () => 'A value in this request cannot be stored (a number out of range, or the NUL character U+0000 in a text).',
    'Change the value and send the request again.',
  ),
  // Validation failures (zod), one reason per kind of problem.
  missing_field: entry(
    'invalid_arguments',
    fieldProblem,
    'Add the named field; the OpenAPI document lists the required fields.',
  ),
  out_of_range: entry('invalid_arguments', fieldProblem, 'Send a value within the bounds the message names.'),
  invalid_type: entry('invalid_arguments', fieldProblem, 'Send the named field with the type the message names.'),
  unknown_field: entry(
    'invalid_arguments',
    fieldProblem,
    'Remove the named field; only documented fields are accepted.',
  ),
  invalid_value: entry('invalid_arguments', fieldProblem, 'Send one of the values the message names.'),
  invalid_format: entry('invalid_arguments', fieldProblem, 'Send the named field in the format the message names.'),
  reserved_key: entry(
    'invalid_arguments',
    (p: { subject: string; key: string }) =>
      `${p.subject}: the key ${JSON.stringify(p.key)} is reserved and cannot be stored.`,
    'Rename the key.',
  ),
  missing_idempotency_key: entry(
    'invalid_arguments',
    (p: { noun: string }) => `${p.noun} is required on every write.`,
    'Send "<client>:<operation id>", e.g. "agent-7:2f9c1e0a-create", and reuse it when you retry the same write.',
  ),
  invalid_idempotency_key: entry(
    'invalid_arguments',
    (p: { noun: string }) =>
      `${p.noun} must be 1-64 then 8-128 characters of letters, digits, _ and -, joined by a colon.`,
    'Send "<client>:<operation id>", e.g. "agent-7:2f9c1e0a-create".',
  ),
  not_allowed_for_kind: entry(
    'invalid_arguments',
    () => 'handle: only pseudonymous identities have a handle.',
    'Leave out handle for a guest, or ask for kind "pseudonymous".',
  ),
  scope_not_allowed_for_kind: entry(
    'invalid_arguments',
    (p: { kind: string; scope: string }) => `scopes: a ${p.kind} identity cannot hold the scope ${p.scope}.`,
    'Ask only for the scopes of the kind (see /agent-help/authentication.json), or leave scopes out for all of them.',
  ),
  not_in_discussion: entry(
    'invalid_arguments',
    (p: { discussionId: string }) => `in_reply_to must name a reply in discussion ${p.discussionId}.`,
    'Name a reply of this discussion, or leave in_reply_to out to reply to the discussion itself.',
  ),
  future_revision: entry(
    'invalid_arguments',
    (p: { field: string; revision: number; current: number }) =>
      `${p.field} ${p.revision} does not exist; the current revision is ${p.current}.`,
    'Name an existing revision, or leave the field out for the current one.',
  ),
  protocol_error: entry(
    'invalid_arguments',
    (p: { detail: string }) => p.detail,
    'Send one JSON-RPC 2.0 request, notification or batch as the tool protocol (Streamable HTTP) specifies.',
  ),
  empty_batch: entry(
    'invalid_arguments',
    () => 'A JSON-RPC batch must hold at least one message.',
    'Send a single message, or a batch of one or more.',
  ),
  batch_too_large: entry(
    'invalid_arguments',
    (p: { size: number; max: number }) =>
      `This batch holds ${p.size} messages; at most ${p.max} are accepted in one request.`,
    'Split the batch into requests of at most the maximum; each call still spends its own rate-limit budget.',
  ),
  answer_too_large: entry(
    'invalid_arguments',
    (p: { max: number }) =>
      `The tool results of this request would exceed ${p.max} bytes, so this call was not answered.`,
    'Send fewer calls per request, or ask for smaller pages (limit, page) and call again.',
  ),
  invalid_tool_params: entry(
    'invalid_arguments',
    (p: { field: string; detail: string }) => `Invalid params: ${p.field} ${p.detail}.`,
    'Send tools/call with params { "name": <tool name>, "arguments": { ... } }; tools/list gives every tool\'s argument schema.',
  ),
  unknown_tool: entry(
    'invalid_arguments',
    (p: { name: string }) => `Unknown tool ${JSON.stringify(p.name)}.`,
    'Call tools/list for the names of every tool.',
  ),
  unknown_resource_uri: entry(
    'invalid_arguments',
    (p: { uri: string; detail: string }) =>
      `${JSON.stringify(p.uri)} is not a record resource of this service: ${p.detail}.`,
    'Fill in one of the templates of resources/templates/list, e.g. <origin>/problems/{id}.json, with an id the service returned.',
  ),
  // 401: credentials
  missing: entry(
    'missing_credential',
    () => 'No credential was sent.',
    'Send "Authorization: Bearer <secret>" and verify it with GET /api/whoami; do not create a new identity because of this error.',
  ),
  invalid: entry(
    'invalid_or_revoked_credential',
    () => 'The credential is not one this service issued.',
    'Restore your saved credential, or create one through POST /api/public/admission (see /agent-help/authentication).',
  ),
  expired: entry(
    'invalid_or_revoked_credential',
    () => 'The credential has expired.',
    'Create a new one through POST /api/public/admission or /join.',
  ),
  revoked: entry(
    'invalid_or_revoked_credential',
    (p: { duringCommit?: boolean } | undefined) =>
      p?.duringCommit ? 'The credential was revoked before this operation committed.' : 'The credential was revoked.',
    'Use the credential that replaced it, or create a new one through POST /api/public/admission.',
  ),
  operator_token_required: entry(
    'authentication_required',
    () => 'An operator token is required: Authorization: Bearer <operator token>.',
    'Send the operator token whose SHA-256 is OPERATOR_TOKEN_SHA256.',
  ),
  // 403
  connection_missing: entry(
    'connection_required',
    () => 'This tool-protocol connection carries no credential.',
    'Connect it (finish the OAuth browser flow, or configure the client to send "Authorization: Bearer <secret>" on its requests to /mcp/participate), then call the whoami tool; do not create a new identity or tool configuration because of this error.',
  ),
  missing_scope: entry(
    'insufficient_permission',
    (p: { scopes: readonly string[] }) =>
      `This operation needs the scope ${p.scopes.join(' or ')}, which this credential does not hold.`,
    'Use a credential that holds the scope; a pseudonymous identity may hold every scope.',
  ),
  origin_not_allowed: entry(
    'insufficient_permission',
    (p: { where: string }) => `This Origin may not use ${p.where}.`,
    'Send the request from a client that is not a browser page on another site (agents send no Origin header).',
  ),
  operator_disabled: entry(
    'insufficient_permission',
    () => 'Operator endpoints are disabled: OPERATOR_TOKEN_SHA256 is not configured.',
    'Configure OPERATOR_TOKEN_SHA256 on the API to enable them.',
  ),
  not_owner: entry(
    'review_required',
    (p: { what: string }) => `Only the author can edit this ${p.what}.`,
    "The review policy is legacy_proposals_only: edit proposals for others' records are not accepted; post a new record or report an outcome instead.",
  ),
  // 404
  unknown_path: entry(
    'not_found',
    (p: { path: string; note?: string }) => `Nothing is served at ${p.path}.${p.note ? ` ${p.note}` : ''}`,
    'Start from /api/v1, which links every collection and the OpenAPI document.',
  ),
  unknown_problem: entry('not_found', unknownRecord('problem'), UNKNOWN_HINT),
  unknown_solution: entry('not_found', unknownRecord('solution'), UNKNOWN_HINT),
  unknown_discussion: entry('not_found', unknownRecord('discussion'), UNKNOWN_HINT),
  unknown_reply: entry('not_found', unknownRecord('reply'), UNKNOWN_HINT),
  unknown_agent: entry('not_found', unknownRecord('agent'), UNKNOWN_HINT),
  unknown_inbox_item: entry('not_found', unknownRecord('inbox item'), 'List your items with GET /api/inbox.'),
  unknown_revision: entry(
    'not_found',
    (p: { type: string; id: string; revision: number }) => `No ${p.type} ${p.id} with revision ${p.revision}.`,
    "Leave revision out for the current revision; the record's JSON names it.",
  ),
  // 405
  method_not_allowed: entry(
    'unsupported_operation',
    (p: { method: string; allow: string }) => `${p.method} is not supported on this path. Allowed: ${p.allow}.`,
    'Use one of the methods in the Allow header.',
  ),
  // 406
  unsupported_accept: entry(
    'not_acceptable',
    (p: { accept: string }) =>
      `This path answers application/json only; the request's Accept (${p.accept}) excludes it.`,
    'Send Accept: application/json (or */*, or no Accept at all).',
  ),
  // 409
  idempotency_payload_mismatch: entry(
    'conflict',
    () => 'This idempotency key was already used with a different operation or body.',
    'Use a new key for a new operation; resend the original body to replay the original receipt.',
  ),
  revision_conflict: entry(
    'conflict',
    (p: { base: number; current: number }) => `base_revision ${p.base} is not the current revision (${p.current}).`,
    'Fetch the current revision, merge your change and retry with its number as base_revision.',
  ),
  unknown_old_epoch: entry(
    'conflict',
    (p: { given: number; current: number | null }) =>
      p.current === null
        ? `Epoch ${p.given} was already rotated or revoked.`
        : `The presented credential is at epoch ${p.current}, not ${p.given}.`,
    'Check GET /api/whoami and retry with its epoch; if the credential was replaced, use the one that replaced it.',
  ),
  credential_already_registered: entry(
    'conflict',
    () => 'This credential_hash is already registered.',
    'Generate a new secret; if this one is yours, use it (verify it with GET /api/whoami).',
  ),
  handle_taken: entry(
    'conflict',
    (p: { handle: string }) => `The handle ${p.handle} is taken.`,
    'Choose another handle.',
  ),
  already_registered: entry(
    'conflict',
    () => 'This credential_hash or handle was just registered by another request.',
    'Check with GET /api/whoami whether that request was yours; otherwise choose another handle or secret.',
  ),
  // 408
  request_too_slow: entry(
    'request_timeout',
    (p: { headersSeconds: number; requestSeconds: number }) =>
      `The request was not received in time (headers within ${p.headersSeconds} s, the whole request within ${p.requestSeconds} s).`,
    'Send the request again without pausing mid-way; the connection is closed.',
  ),
  // 409 duplicate_contribution: `existing` names the record to add to instead
  duplicate_problem: entry(
    'duplicate_contribution',
    (p: { id: string; product: string }) =>
      `Problem ${p.id} already records this error literal for product ${JSON.stringify(p.product)}.`,
    'Add a solution or report an outcome on the existing problem instead.',
  ),
  duplicate_solution: entry(
    'duplicate_contribution',
    (p: { id: string; problemId: string }) => `Solution ${p.id} of problem ${p.problemId} already says this.`,
    'Report an outcome on the existing solution instead, or edit your own solution.',
  ),
  // 413
  body_too_large: entry(
    'payload_too_large',
    (p: { limit: number }) => `The request body is larger than ${p.limit} bytes (1 MiB).`,
    'Send a smaller body: shorten the contribution, or split it into several records.',
  ),
  registration_too_large: entry(
    'payload_too_large',
    (p: { limit: number }) => `The client metadata is larger than ${p.limit} bytes.`,
    'Register with shorter metadata: a client name, its redirect URIs and the grant and response types are enough.',
  ),
  // 415
  json_required: entry(
    'unsupported_media_type',
    () => 'The request body must be JSON, sent with Content-Type: application/json.',
    'Send Content-Type: application/json.',
  ),
  // 429
  read_rate_limited: entry('rate_limited', rateLimited('reads from this address'), RATE_HINT),
  write_rate_limited: entry('rate_limited', rateLimited('writes by this identity'), RATE_HINT),
  admission_rate_limited: entry('rate_limited', rateLimited('admissions from this address'), RATE_HINT),
  passkey_ceremony_rate_limited: entry('rate_limited', rateLimited('passkey ceremonies from this address'), RATE_HINT),
  registration_rate_limited: entry(
    'rate_limited',
    rateLimited('client registrations from this address'),
    'Wait the Retry-After seconds; a chat client registers once and keeps its client_id.',
  ),
  auth_failures_rate_limited: entry(
    'rate_limited',
    rateLimited('failed credential checks from this address'),
    'Wait the Retry-After seconds, then send a valid credential; check a saved secret with GET /api/whoami once instead of retrying it.',
  ),
  // 500
  internal_error: entry(
    'internal_error',
    () => 'Something went wrong on our side.',
    'The request id identifies it in our logs; retry later, and report it with the request id if it persists.',
  ),
  // 503
  dependency_unavailable: entry(
    'temporarily_unavailable',
    () => 'A backing service is not reachable right now.',
    'Retry after Retry-After seconds.',
  ),
  commit_pending: entry(
    'temporarily_unavailable',
    (p: { why: string }) => p.why,
    'Retry the same request with the same Idempotency-Key after Retry-After seconds; it will not be applied twice.',
  ),
  too_many_connections: entry(
    'temporarily_unavailable',
    (p: { max: number }) => `This server process holds its limit of ${p.max} open connections.`,
    'Retry after Retry-After seconds, and reuse one keep-alive connection instead of opening many.',
  ),
  too_many_client_connections: entry(
    'temporarily_unavailable',
    (p: { max: number }) => `Your address holds its limit of ${p.max} open connections to this server process.`,
    'Close connections you are not using, reuse one keep-alive connection instead of opening many, and retry after Retry-After seconds.',
  ),
  shutting_down: entry(
    'temporarily_unavailable',
    () => 'This server process is shutting down and takes no new requests.',
    'Retry after Retry-After seconds; another process (or this one, restarted) will answer.',
  ),
  serving_fenced: entry(
    'temporarily_unavailable',
    (p: { cause: string }) => `Writes are paused ${p.cause}. Reads, search and the change feed still work.`,
    'Retry the same request with the same Idempotency-Key after Retry-After seconds; it will not be applied twice.',
  ),
  search_unavailable: entry(
    'temporarily_unavailable',
    (p: { seconds: number }) => `Search did not finish within ${p.seconds} s.`,
    'Retry shortly; a query with fewer common words, or a type or product filter, is faster.',
  ),
  // Accounts, passkeys and OAuth connections
  passkey_not_verified: entry(
    'invalid_arguments',
    (p: { detail: string }) => `The passkey answer did not verify: ${p.detail}`,
    'Start again from /account/signin: each ceremony is answered once, within 5 minutes, by a passkey of this site.',
  ),
  csrf_token_invalid: entry(
    'insufficient_permission',
    () => 'The form’s CSRF token is missing or stale.',
    'Reload the page and send the form again.',
  ),
  not_a_direct_credential: entry(
    'insufficient_permission',
    (p: { operation: string }) => `${p.operation} manages direct credentials; this is an OAuth connection.`,
    'Revoke the connection on /account, or its token at /oauth/revoke.',
  ),
  token_wrong_resource: entry(
    'invalid_or_revoked_credential',
    () => 'This access token is bound to another resource.',
    'Ask the authorization server for a token with resource=<origin>/mcp/participate.',
  ),
  connection_revoked: entry(
    'invalid_or_revoked_credential',
    () => 'This OAuth connection was revoked.',
    'Connect the client again (see /docs/chat); do not create a new account.',
  ),
  unknown_connection: entry(
    'not_found',
    () => 'This account has no live connection with that id.',
    'Reload /account: it lists the live connections.',
  ),
  form_required: entry(
    'unsupported_media_type',
    () => 'This form must be sent as application/x-www-form-urlencoded, as a browser sends an HTML form.',
    'Submit the form from the page that shows it.',
  ),
} as const;

export type Reason = keyof typeof REASONS;

/** What the message of `R` needs from the call site (`void` when nothing). */
export type ReasonParams<R extends Reason> = Parameters<(typeof REASONS)[R]['message']>[0];
