/**
 * The OpenAPI document against the running service: every operation is
 * called for real and its answer (status, JSON body, documented headers)
 * must match what the document says; and a client generated from the
 * document (openapi-typescript types + openapi-fetch) runs an agent's flow.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import type { paths } from '../generated/openapi.ts';
import { admit, eventually, newKey, newSecret, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
type Json = Record<string, any>;

let stack: Stack;
let agent: Agent;
/** Sends the writes, one of which revokes its own credential. */
let writer: Agent;
let doc: Json;
const ids: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
  writer = await admit(stack.base);
  ids.problem = (
    await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: 'Contract test problem' }))
  ).body.resource.id;
  ids.solution = (
    await send(stack.base, agent, 'POST', '/api/solutions', { problem_id: ids.problem, body: 'Contract test solution' })
  ).body.resource.id;
  ids.discussion = (
    await send(stack.base, agent, 'POST', '/api/discussions', { title: 'Contract test discussion', body: 'Talk' })
  ).body.resource.id;
  ids.agent = agent.id;
  await eventually(
    async () => (await fetch(`${stack.base}/sitemap.xml`).then((r) => r.text())).includes('/sitemaps/problems-'),
    30_000,
  );
  doc = await (await fetch(`${stack.base}/openapi.json`)).json();
});
afterAll(() => stack.close());

const METHODS = ['get', 'post', 'patch', 'options'] as const;

/** A concrete URL for a documented path, with real records in it. */
async function concrete(path: string): Promise<string> {
  const type = path
    .split('/')
    .find((part) => ['problems', 'solutions', 'discussions', 'agents'].includes(part))
    ?.replace(/s$/, '');
  let url = path.replace('{id}', ids[type ?? 'problem']!);
  if (url.startsWith('/sitemaps/')) {
    const chunk = /\/sitemaps\/([^<]+\.xml)</.exec(await (await fetch(`${stack.base}/sitemap.xml`)).text())![1]!;
    url = url.replace('{file}', chunk);
  }
  return url.replace('{file}', 'tiers.json');
}

function responseFor(operation: Json, status: number): Json | undefined {
  const response = operation.responses[String(status)];
  if (!response?.$ref) return response;
  return doc.components.responses[response.$ref.split('/').pop()];
}

describe('every operation of the OpenAPI document', () => {
  it('answers with a documented status, documented headers and a body that validates against its schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc, 'openapi');
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      // The account and OAuth forms (cookie sessions, CSRF tokens; documented in api/oauth/openapi.ts) need a browser session to answer; not called here.
      if (path.startsWith('/oauth/') || path.startsWith('/account')) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const write = method === 'post' || method === 'patch';
        const res = await fetch(stack.base + (await concrete(path)), {
          method: method.toUpperCase(),
          headers: write
            ? {
                'content-type': 'application/json',
                authorization: `Bearer ${writer.secret}`,
                'idempotency-key': newKey(),
              }
            : path === '/api/inbox' || path === '/api/whoami'
              ? { authorization: `Bearer ${agent.secret}` }
              : {},
          ...(write ? { body: '{}' } : {}),
        });
        const where = `${method.toUpperCase()} ${path} → ${res.status}`;
        const response = responseFor(operation, res.status);
        expect(response, `${where} is not documented`).toBeDefined();
        for (const header of Object.keys(response!.headers ?? {})) {
          if (['ETag', 'Allow', 'X-Request-Id'].includes(header))
            expect(res.headers.get(header), `${where} ${header}`).not.toBeNull();
        }
        const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
        if (res.status !== 204 && res.status !== 304)
          expect(Object.keys(response!.content ?? {}), where).toContain(type);
        if (type === 'application/json' && res.status !== 304) {
          const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${res.status}/content/application~1json/schema`;
          const validate =
            response === operation.responses[String(res.status)]
              ? (ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer }))
              : ajv.compile({
                  $ref: `openapi#/components/responses/${operation.responses[String(res.status)].$ref.split('/').pop()}/content/application~1json/schema`,
                });
          const body = await res.json();
          expect(validate(body) ? [] : validate.errors, where).toEqual([]);
        } else {
          await res.arrayBuffer();
        }
        checked.push(where);
      }
    }
    expect(checked.length).toBeGreaterThan(80);
    // The successful reads: records, collections, search, the feed and the inbox answered 200 and validated.
    for (const line of [
      'GET /api/v1/problems/{id} → 200',
      'GET /api/v1/search → 200',
      'GET /api/problems → 200',
      'GET /api/v1/changes → 200',
      'GET /api/inbox → 200',
      'GET /api/v1 → 200',
      'GET /sitemaps/{file} → 200',
    ]) {
      expect(checked).toContain(line);
    }
  });
});

describe('a client generated from the document', () => {
  it('is current: openapi-typescript (on the TypeScript 5 path) gives the committed types', async () => {
    const { stdout } = await run(process.execPath, [
      '--import',
      './scripts/typescript5/hooks.ts',
      'scripts/openapi-client.ts',
      '--check',
    ]);
    expect(stdout).toContain('client types are current');
  }, 120_000);

  it("runs an agent's flow with openapi-fetch: admission, a write, a typed read, search and the feed", async () => {
    const client = createClient<paths>({ baseUrl: stack.base });
    const secret = newSecret();
    const admitted = await client.POST('/api/public/admission', {
      body: {
        kind: 'pseudonymous',
        handle: `typed-${Date.now().toString(36)}`,
        credential_hash: credentialHash(secret),
      },
    });
    expect(admitted.response.status).toBe(201);
    const identityId: string = admitted.data!.identity.id;
    expect(identityId).toMatch(/^agt_/);

    const created = await client.POST('/api/problems', {
      params: { header: { 'Idempotency-Key': newKey() } },
      headers: { authorization: `Bearer ${secret}` },
      body: { title: 'Typed client problem', body: 'Written through the generated client.', product: 'openapi-fetch' },
    });
    expect(created.response.status).toBe(201);
    const id: string = created.data!.resource.id;

    const read = await eventually(async () => {
      const answer = await client.GET('/api/v1/problems/{id}', { params: { path: { id } } });
      return answer.response.ok ? answer.data : null;
    });
    const title: string = read.title;
    expect(title).toBe('Typed client problem');

    const found = await client.GET('/api/v1/search', { params: { query: { q: 'Typed client problem' } } });
    const items = found.data!.items;
    expect(Array.isArray(items)).toBe(true);

    const feed = await client.GET('/api/v1/changes', { params: { query: { limit: 100 } } });
    expect(feed.data!.changes.length).toBeGreaterThan(0);

    const whoami = await client.GET('/api/whoami', { headers: { authorization: `Bearer ${secret}` } });
    expect(whoami.data!.identity.id).toBe(identityId);
  });
});
