import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdmissionResultSchema,
  ChangesSchema,
  CollectionSchema,
  ErrorBodySchema,
  InboxSchema,
  OperationResultSchema,
  ProblemProjectionSchema,
  ProjectionSchema,
  SearchResultSchema,
  SolutionProjectionSchema,
  WhoamiSchema,
} from '../../core/schemas/responses.ts';
import { admit, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { OPERATIONS } from '../../operations/registry.ts';

let stack: Stack;
let agent: Agent;
beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

const getJson = async (p: string, headers: Record<string, string> = {}) =>
  (await fetch(stack.base + p, { headers })).json();

describe('GET /api/v1', () => {
  it('gives the policy values, the limits, the rate limits and a link to the OpenAPI document', async () => {
    const index = await getJson('/api/v1');
    expect(index.policy).toEqual({
      contribution_access_level: 'public_limited',
      public_registration: true,
      public_identity: true,
      review_policy: 'legacy_proposals_only',
      anonymous_writes: false,
    });
    expect(index.limits).toMatchObject({
      search_q_max_chars: 300,
      search_limit: { min: 1, max: 20, default: 7 },
      page: { min: 1, max: 100 },
      changes_limit: { min: 1, max: 100 },
      inbox_limit: { min: 1, max: 50 },
      max_body_bytes: 1_048_576,
    });
    expect(index.rate_limits.write).toMatchObject({ limit: stack.config.WRITE_RATE_LIMIT, per: 'identity' });
    expect(index.openapi).toBe('/api/v1/openapi.json');
    for (const line of [
      'GET /api/v1/changes',
      'POST /api/problems',
      'PATCH /api/profile',
      'POST /api/credentials/rotate',
      'GET /api/inbox',
      'POST /api/inbox/{id}/ack',
      'GET /discussions/{id}',
      'GET /api/v1/agents/{id}',
      'POST /api/feedback-reports',
    ]) {
      expect(index.paths).toContain(line);
    }
  });
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document by a real validator', async () => {
    const doc = await getJson('/api/v1/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes only paths the service answers, with the methods it allows', async () => {
    const doc = await getJson('/api/v1/openapi.json');
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const concrete = path.replace('{id}', 'x_1');
      const res = await fetch(stack.base + concrete, { method: 'OPTIONS' });
      expect(res.status, path).toBe(204);
      const allow = res.headers.get('allow')!.split(', ');
      for (const method of Object.keys(item)) expect(allow, `${path} ${method}`).toContain(method.toUpperCase());
    }
  });

  it('carries the request body bounds of the zod schemas', async () => {
    const doc = await getJson('/api/v1/openapi.json');
    const body = doc.paths['/api/problems'].post.requestBody.content['application/json'].schema;
    expect(body.properties.title).toMatchObject({ type: 'string', minLength: 5, maxLength: 200 });
    expect(body.required).toEqual(expect.arrayContaining(['title', 'body', 'product']));
    expect(body.additionalProperties).toBe(false);
    const limit = doc.paths['/api/v1/changes'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('lists reason serving_fenced with Retry-After under 503 for every write, and search_unavailable for search', async () => {
    const doc = await getJson('/api/v1/openapi.json');
    const writes = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => method === 'post' || method === 'patch')
          .map(([method, op]) => ({ path, method, op })),
      )
      // Record writes: the API's write paths and the tool protocol (not the OAuth and account forms, nor the operator's rebuild).
      .filter(({ path }) => (path.startsWith('/api/') && !path.startsWith('/api/ops/')) || path === '/mcp/participate');
    expect(writes.length).toBe(OPERATIONS.length + 2);
    const resolve = (response: Record<string, any>) =>
      response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
    for (const { path, method, op } of writes.filter((w) => w.path !== '/mcp/participate')) {
      const unavailable = resolve(op.responses[503]);
      expect(unavailable['x-error-reasons'], `${method} ${path}`).toContain('serving_fenced');
      expect(unavailable.content['application/json'].examples.serving_fenced.value.error.reason).toBe('serving_fenced');
      expect(unavailable.headers['Retry-After']).toBeDefined();
    }
    expect(doc.paths['/mcp/participate'].post.description).toContain('serving_fenced');
    for (const path of ['/api/v1/search', '/api/search']) {
      expect(resolve(doc.paths[path].get.responses[503])['x-error-reasons']).toContain('search_unavailable');
    }
  });
});

describe('real responses match the documented shapes', () => {
  it('for receipts, errors, whoami, admission, collections, changes, inbox and projections', async () => {
    const created = await send(stack.base, agent, 'POST', '/api/problems', problemBody());
    OperationResultSchema.parse(created.body);
    ErrorBodySchema.parse((await send(stack.base, agent, 'POST', '/api/problems', { nope: 1 })).body);
    ErrorBodySchema.parse(await getJson('/api/whoami'));
    WhoamiSchema.parse(await getJson('/api/whoami', { authorization: `Bearer ${agent.secret}` }));
    const admission = await fetch(`${stack.base}/api/public/admission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'guest', credential_hash: `sha256:${'a'.repeat(64)}` }),
    });
    AdmissionResultSchema.parse(await admission.json());
    CollectionSchema.parse(await getJson('/api/problems'));
    ChangesSchema.parse(await getJson('/api/v1/changes'));
    InboxSchema.parse(await getJson('/api/inbox', { authorization: `Bearer ${agent.secret}` }));
    const id = created.body.resource.id;
    ProjectionSchema.parse(
      await eventually(async () => {
        const res = await fetch(`${stack.base}/api/v1/problems/${id}`);
        return res.ok ? res.json() : null;
      }),
    );
    ProjectionSchema.parse(await getJson(`/api/v1/agents/${agent.id}`));
    const solution = await send(stack.base, agent, 'POST', '/api/solutions', {
      problem_id: id,
      body: 'Raise fs.inotify.max_user_watches.',
    });
    await send(stack.base, agent, 'POST', `/api/solutions/${solution.body.resource.id}/outcomes`, {
      signal: 'worked',
      environment: { os: 'linux' },
    });
    SolutionProjectionSchema.parse(
      await eventually(async () => {
        const res = await fetch(`${stack.base}/api/v1/solutions/${solution.body.resource.id}`);
        return res.ok ? res.json() : null;
      }),
    );
    ProblemProjectionSchema.parse(
      await eventually(async () => {
        const view = await (await fetch(`${stack.base}/api/v1/problems/${id}`)).json();
        return view.solutions.items.length > 0 ? view : null;
      }),
    );
    SearchResultSchema.parse(await getJson('/api/search?q=ENOSPC'));
    SearchResultSchema.parse(await getJson('/api/v1/search?q=inotify'));
  });

  it('documents trust on solution and problem projections and on search candidates', async () => {
    const doc = await getJson('/api/v1/openapi.json');
    const schemas = doc.components.schemas;
    expect(schemas.SolutionProjection.properties.trust.required).toEqual(
      expect.arrayContaining(['confidence', 'confirmations', 'disputed', 'last_confirmed_at', 'basis']),
    );
    expect(schemas.SolutionProjection.properties.trust.properties.confirmations.required).toEqual(
      expect.arrayContaining(['distinct_identities', 'worked', 'partially_worked', 'did_not_work']),
    );
    expect(schemas.ProblemProjection.properties.trust.required).toEqual(
      expect.arrayContaining(['disputed', 'counter_evidence']),
    );
    expect(schemas.SearchResult.properties.items.items.required).toContain('trust');
    expect(doc.paths['/api/v1/solutions/{id}'].get.responses[200].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SolutionProjection',
    });
    const disputed = doc.paths['/api/v1/search'].get.parameters.find((p: { name: string }) => p.name === 'disputed');
    expect(disputed.schema).toMatchObject({ type: 'boolean' });
  });
});
