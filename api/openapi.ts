/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the API
 * validates with (request bodies, query parameters) and answers with
 * (core/schemas/responses.ts), so the document cannot drift from the code.
 */
import { z } from 'zod';
import { ChangesParamsSchema, CollectionParamsSchema, InboxParamsSchema, RecordParamsSchema } from '../core/schemas/read-params.ts';
import { AdmissionSchema } from '../core/schemas/identity.ts';
import { SearchParamsSchema } from '../core/schemas/search-params.ts';
import {
  AdmissionResultSchema, ChangesSchema, CollectionSchema, ErrorBodySchema, InboxSchema, OperationResultSchema,
  ProjectionSchema, WhoamiSchema,
} from '../core/schemas/responses.ts';
import { COLLECTION } from '../core/types.ts';
import { STATIC_PAGES } from './routes/pages.ts';
import { WRITE_OPERATIONS } from './write-operations.ts';

type Json = Record<string, unknown>;

/** A zod schema as a JSON Schema 2020-12 object (what OpenAPI 3.1 embeds). */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  return rest;
}

/** Query parameters from a zod object: its parsed (output) types carry the real bounds. */
function queryParameters(schema: z.ZodType): Json[] {
  const json = schemaOf(schema, 'output') as { properties?: Record<string, Json> };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => ({ name, in: 'query', required: false, schema: prop }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
const error = (description: string) => ({ description, ...json(ref('Error')) });

const READ_ERRORS = {
  304: { description: 'Not modified (If-None-Match matched the ETag).' },
  400: error('Invalid parameter.'),
  404: error('Unknown record.'),
  429: error('Rate limited; wait Retry-After seconds.'),
  503: error('Temporarily unavailable.'),
};

const WRITE_ERRORS = {
  400: error('Invalid input or Idempotency-Key.'),
  401: error('Missing, invalid, expired or revoked credential.'),
  403: error('Forbidden scope, ownership (review_required) or Origin.'),
  404: error('Unknown resource.'),
  409: error('Idempotency payload mismatch, revision conflict, unknown old epoch or concurrent state change.'),
  413: error('Body over 1 MiB.'),
  415: error('JSON required.'),
  429: error('Rate limited.'),
  503: error('Not committed in time or a backing service is away; retry with the same Idempotency-Key.'),
};

const ID_PARAM = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key', in: 'header', required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{8,128}$' },
  description: 'Scoped to your identity; the same key and body replay the receipt (200), another body is 409.',
};
const OPTIONS = {
  summary: 'Allowed methods.',
  responses: { 204: { description: 'No content; see Allow.', headers: { Allow: { schema: { type: 'string' } } } } },
};

function read(summary: string, parameters: Json[], body: Json, mediaType = 'application/json'): Json {
  return {
    summary, parameters,
    responses: { 200: { description: 'OK, with a strong ETag.', content: { [mediaType]: { schema: body } } }, ...READ_ERRORS },
  };
}

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Json> = {};
  const add = (path: string, method: string, operation: Json) => {
    paths[path] = { ...paths[path], [method]: operation, options: OPTIONS };
  };

  add('/api/v1', 'get', read('Read API index: paths, policy values, limits.', [], { type: 'object' }));
  add('/api/v1/openapi.json', 'get', read('This document.', [], { type: 'object' }));
  for (const [type, folder] of Object.entries(COLLECTION)) {
    const params = type === 'agent' ? [ID_PARAM] : [ID_PARAM, ...queryParameters(RecordParamsSchema)];
    add(`/api/v1/${folder}/{id}`, 'get', read(`JSON projection of a ${type}.`, params, ref('Projection')));
    add(`/${folder}/{id}`, 'get', read(`HTML projection of a ${type}.`, params, { type: 'string' }, 'text/html'));
    add(`/${folder}/{id}.json`, 'get', read(`JSON projection of a ${type}.`, params, ref('Projection')));
    add(`/${folder}/{id}.md`, 'get', read(`Markdown projection of a ${type}.`, params, { type: 'string' }, 'text/markdown'));
  }
  for (const folder of ['problems', 'solutions', 'discussions']) {
    add(`/api/${folder}`, 'get', read(`Paginated ${folder}, newest first.`, queryParameters(CollectionParamsSchema), ref('Collection')));
  }
  add('/api/v1/search', 'get', read('Compact first-stage candidates: match kind and coverage per hit, no full evidence.', queryParameters(SearchParamsSchema), { type: 'object' }));
  add('/api/search', 'get', read('The same candidates plus coverage for the whole query (total, by_type, modes_tried).', queryParameters(SearchParamsSchema), { type: 'object' }));
  add('/api/v1/changes', 'get', read('Public committed changes after a cursor.', queryParameters(ChangesParamsSchema), ref('Changes')));
  add('/api/inbox', 'get', {
    ...read('Your unacknowledged replies; reading never acknowledges.', queryParameters(InboxParamsSchema), ref('Inbox')),
    security: [{ bearer: [] }],
  });
  add('/api/whoami', 'get', {
    summary: 'Verify a direct credential.', security: [{ bearer: [] }],
    responses: { 200: { description: 'Authenticated.', ...json(ref('Whoami')) }, 401: error('With reason and recovery.') },
  });
  add('/api/public/admission', 'post', {
    summary: 'Create a guest or pseudonymous identity with a client-generated credential (its hash only).',
    requestBody: { required: true, ...json(schemaOf(AdmissionSchema, 'input')) },
    responses: {
      201: { description: 'Created.', ...json(ref('AdmissionResult')) },
      400: error('Invalid input.'), 403: error('Foreign Origin.'), 409: error('Hash or handle already registered.'),
      413: error('Too large.'), 415: error('JSON required.'), 429: error('Rate limited.'),
    },
  });
  for (const page of STATIC_PAGES) {
    const type = page.file.endsWith('.json') ? 'application/json' : page.file.endsWith('.md') ? 'text/markdown'
      : page.file.endsWith('.svg') ? 'image/svg+xml' : 'text/html';
    add(page.path, 'get', read('A prerendered page (help, browser pages); works without JavaScript except /join and /search.', [], type === 'application/json' ? { type: 'object' } : { type: 'string' }, type));
  }
  add('/pagefind/{file}', 'get', read('The static search index (Pagefind) the /search page loads.', [
    { name: 'file', in: 'path', required: true, schema: { type: 'string' } },
  ], { type: 'string' }, 'application/octet-stream'));
  add('/mcp/participate', 'post', {
    summary: 'Tool protocol (MCP, Streamable HTTP, stateless): whoami, read tools and one tool per write operation.',
    description: 'JSON-RPC 2.0 over POST. Writes need a bearer credential and share idempotency keys with HTTP.',
    requestBody: { required: true, ...json({ type: 'object' }) },
    responses: { 200: { description: 'JSON-RPC response.', ...json({ type: 'object' }) }, 403: error('Foreign Origin.'), 415: error('JSON required.') },
  });
  for (const op of WRITE_OPERATIONS) {
    const path = op.path.replace(':id', '{id}');
    add(path, op.method.toLowerCase(), {
      operationId: op.operation,
      summary: op.summary,
      description: `Required scope: ${op.scopes.join(' or ')}.`,
      security: [{ bearer: [] }],
      parameters: [IDEMPOTENCY_KEY, ...(op.param ? [ID_PARAM] : [])],
      requestBody: { required: true, ...json(schemaOf(op.schema, 'input')) },
      responses: {
        201: { description: 'Committed.', ...json(ref('OperationResult')) },
        200: { description: 'Replayed: committed earlier under this key.', ...json(ref('OperationResult')) },
        ...WRITE_ERRORS,
      },
    });
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent Knowledge', version: '0.1.0',
      description: 'Public preview. Reads need no credentials; writes need a scoped bearer credential.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A client-generated secret; only its SHA-256 is registered.' } },
      schemas: {
        Error: schemaOf(ErrorBodySchema, 'output'),
        OperationResult: schemaOf(OperationResultSchema, 'output'),
        AdmissionResult: schemaOf(AdmissionResultSchema, 'output'),
        Whoami: schemaOf(WhoamiSchema, 'output'),
        Changes: schemaOf(ChangesSchema, 'output'),
        Collection: schemaOf(CollectionSchema, 'output'),
        Inbox: schemaOf(InboxSchema, 'output'),
        Projection: schemaOf(ProjectionSchema, 'output'),
      },
    },
  };
}

/** "GET /api/v1/changes"-style lines for every operation in the document. */
export function listOperations(doc: Json): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of Object.keys(item)) if (method !== 'options') out.push(`${method.toUpperCase()} ${path}`);
  }
  return out;
}
