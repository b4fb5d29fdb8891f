/**
 * The OpenAPI document's examples, replayed: every operation a program
 * calls (all but the browser flows of accounts and OAuth, which need a
 * session and are driven in test/oauth) is sent exactly as its documented
 * examples say (path, query and header parameters, request body), with no
 * credential, and the answer must be one the document declares for it: a
 * documented status and media type, a body its schema validates, and
 * WWW-Authenticate on a 401 (RFC 9110). The writes are then sent again with
 * a credential. An operation without the examples to build its request
 * fails the test, so every new operation documents one.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'patch'] as const;
/** Browser flows: a cookie session, a CSRF token or an authorization in progress (test/oauth drives them). */
const BROWSER_FLOW = /^\/(account|oauth\/(authorize|interaction|token|register|revoke))/;

let stack: Stack;
let agent: Agent;
let doc: Json;
let ajv: Ajv2020;

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
  doc = await (await fetch(`${stack.base}/openapi.json`)).json();
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi');
});
afterAll(() => stack.close());

const resolve = (value: Json | undefined, kind: 'responses' | 'parameters'): Json | undefined =>
  value?.$ref ? doc.components[kind][value.$ref.split('/').pop()] : value;

/** The request the examples describe, or what is missing to build it. */
function exampleRequest(
  path: string,
  method: string,
  op: Json,
): { url: string; init: RequestInit; headers: Record<string, string> } | string {
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const raw of op.parameters ?? []) {
    const param = resolve(raw, 'parameters')!;
    if (param.example === undefined) {
      if (param.required) return `no example for the ${param.in} parameter ${param.name}`;
      continue;
    }
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
    else if (param.in === 'query') query.set(param.name, String(param.example));
    else if (param.in === 'header') headers[param.name] = String(param.example);
  }
  if (/\{\w+\}/.test(url)) return `no example for a path parameter of ${url}`;
  let body: string | undefined;
  if (op.requestBody) {
    const json = op.requestBody.content?.['application/json'];
    if (!json || json.example === undefined) return 'no example request body';
    body = JSON.stringify(json.example);
    headers['content-type'] = 'application/json';
  }
  const search = query.toString();
  return {
    url: `${url}${search ? `?${search}` : ''}`,
    headers,
    init: { method: method.toUpperCase(), ...(body === undefined ? {} : { body }) },
  };
}

/** What in an answer the document does not say; empty when it says all of it. */
async function undocumented(path: string, method: string, op: Json, res: Response): Promise<string[]> {
  const declared = op.responses[String(res.status)];
  const response = resolve(declared, 'responses');
  if (!response) return [`status ${res.status} is not documented`];
  const problems: string[] = [];
  if (res.status === 401 && !res.headers.get('www-authenticate')) problems.push('a 401 without WWW-Authenticate');
  const text = await res.text();
  if (!text) return problems;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = response.content?.[type];
  if (!content) return [...problems, `media type ${type} is not documented for ${res.status}`];
  if (type.endsWith('json')) {
    // The schema where the document has it, so its own $refs resolve.
    const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
    const at = declared.$ref
      ? `${declared.$ref.slice(1)}/content/${escapePointer(type)}/schema`
      : `/paths/${escapePointer(path)}/${method}/responses/${res.status}/content/${escapePointer(type)}/schema`;
    const check = ajv.getSchema(`openapi#${at}`)!;
    if (!check(JSON.parse(text))) problems.push(`the body does not validate: ${ajv.errorsText(check.errors)}`);
  }
  return problems;
}

describe('every operation replayed from its documented examples', () => {
  it('answers what the document declares, with no credential and, for writes, with one', async () => {
    const replayed: string[] = [];
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      if (BROWSER_FLOW.test(path)) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const request = exampleRequest(path, method, op);
        if (typeof request === 'string') {
          problems.push(`${where}: ${request}`);
          continue;
        }
        const credentials = method === 'get' ? [undefined] : [undefined, agent.secret];
        for (const secret of credentials) {
          const headers = { ...request.headers, ...(secret ? { authorization: `Bearer ${secret}` } : {}) };
          const res = await fetch(stack.base + request.url, { ...request.init, headers });
          for (const problem of await undocumented(path, method, op, res))
            problems.push(`${where}${secret ? ' (with a credential)' : ''} → ${res.status}: ${problem}`);
          replayed.push(`${where} → ${res.status}`);
        }
      }
    }
    console.info(`replayed ${replayed.length} example requests`);
    expect(problems).toEqual([]);
    expect(replayed.length).toBeGreaterThan(60);
  }, 120_000);
});

describe('the document', () => {
  it('is at most 250 KB as served (the size is printed)', async () => {
    const res = await fetch(`${stack.base}/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
    const bytes = Buffer.byteLength(await res.text());
    console.info(`OpenAPI document bytes: ${bytes} (budget ${250 * 1024})`);
    expect(bytes).toBeLessThanOrEqual(250 * 1024);
  });

  it("gives every id in a path its kind's pattern, and an id of another shape is a 404 naming that id", async () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const op of Object.values(item as Json)) {
        const id = (op.parameters ?? []).find((p: Json) => p.in === 'path' && p.name === 'id');
        if (id && !BROWSER_FLOW.test(path)) expect(id.schema.pattern, path).toMatch(/^\^[a-z]{3}_/);
      }
    }
    for (const path of [
      '/api/v1/agents/0',
      '/agents/0',
      '/api/v1/problems/sol_00000000000000000000000000',
      '/problems/0.json',
    ]) {
      const res = await fetch(stack.base + path, { headers: { accept: 'application/json' } });
      expect(res.status, path).toBe(404);
      const body = await res.json();
      expect(body.error.code, path).toBe('not_found');
      expect(body.error.message, path).not.toContain('.json');
    }
  });
});
