/**
 * The OpenAPI entries of the tool protocol's endpoints, beside the code they
 * describe; api/openapi.ts adds them to the document. What is sent is one
 * JSON-RPC 2.0 message or a batch of them, and a body the service refuses
 * (not JSON: -32700; not JSON-RPC: -32600) is a JSON-RPC error with the
 * Error shape as `data`, so the schemas say exactly that.
 */
import { MCP_PATH, MCP_PUBLIC_PATH, MCP_ROOT_PATH } from './path.ts';

type Json = Record<string, unknown>;

const json = (schema: Json, example?: unknown) => ({
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});
const error = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Error' }) });

const ID = { anyOf: [{ type: 'string' }, { type: 'integer' }] };

/** One JSON-RPC 2.0 message: a request or notification (method), or a response (id with result or error). */
const MESSAGE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: ID,
    method: { type: 'string' },
    params: { type: 'object' },
    result: { type: 'object' },
    error: { type: 'object' },
  },
  anyOf: [
    { properties: { method: { type: 'string' } }, required: ['method'] },
    { properties: { id: ID, result: { type: 'object' } }, required: ['id', 'result'] },
    { properties: { id: ID, error: { type: 'object' } }, required: ['id', 'error'] },
  ],
};

const REQUEST_BODY = {
  required: true,
  description: 'One JSON-RPC 2.0 message, or a batch of them (at most MCP_MAX_BATCH, 20 unless configured).',
  ...json(
    { anyOf: [MESSAGE, { type: 'array', minItems: 1, items: MESSAGE }] },
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  ),
};

const RPC_ERROR = {
  type: 'object',
  required: ['jsonrpc', 'id', 'error'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { type: 'null' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer' },
        message: { type: 'string' },
        data: { $ref: '#/components/schemas/Error' },
      },
    },
  },
};

const ANSWERS = {
  200: {
    description: 'The JSON-RPC response (or, for a batch, the responses), as one JSON body.',
    ...json({ anyOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] }),
  },
  202: { description: 'Accepted: the message was a notification or a response; no body.' },
  400: {
    description:
      'A body that is not JSON (-32700), not a JSON-RPC message (-32600), an empty or too large batch (-32600), or one the transport refuses (its own code): a JSON-RPC error with id null and the Error shape as data.',
    ...json(RPC_ERROR),
  },
  403: error('A foreign Origin (a browser page on another site).'),
  405: error('GET and DELETE: stateless, so no stream and no session.'),
  413: error('Body over 1 MiB.'),
  415: error('JSON required.'),
};

const PUBLIC_SUMMARY =
  'Tool protocol (MCP, Streamable HTTP, stateless) for anyone, no credential: resolve_error, the public read tools, the help and records as resources.';

export const TOOL_OPERATIONS: { path: string; method: 'get' | 'post'; operation: Json }[] = [
  {
    path: MCP_PATH,
    method: 'post',
    operation: {
      summary:
        'Tool protocol (MCP, Streamable HTTP, stateless), a protected resource: whoami, the read tools and one tool per write operation.',
      description:
        'JSON-RPC 2.0 over POST. Every request carries an OAuth access token bound to this resource (RFC 8707) or a direct credential. Without one: 401 connection_required with WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource/mcp/participate". A token lacking a tool\'s scope: 403 with WWW-Authenticate error="insufficient_scope" naming it. Writes share idempotency keys with HTTP. A refused tool call is a tool result with isError and the Error body; while writes are fenced every write tool answers code temporarily_unavailable, reason serving_fenced, with retry_after.',
      security: [{ bearer: [] }, { oauth: [] }],
      requestBody: REQUEST_BODY,
      responses: {
        ...ANSWERS,
        401: error('No credential (connection_required), or an unknown, expired or revoked token or credential.'),
        403: error('Foreign Origin, or a scope the token was not granted (step-up).'),
      },
    },
  },
  ...[MCP_PUBLIC_PATH, MCP_ROOT_PATH].map((path) => ({
    path,
    method: 'post' as const,
    operation: {
      summary: path === MCP_ROOT_PATH ? `${PUBLIC_SUMMARY} The same endpoint as ${MCP_PUBLIC_PATH}.` : PUBLIC_SUMMARY,
      requestBody: REQUEST_BODY,
      responses: ANSWERS,
    },
  })),
];
