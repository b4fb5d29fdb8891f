/**
 * Point 14: HEAD on error answers and on /metrics lacked the Content-Length
 * GET sends; an `environment` key `__proto__` was dropped without a word.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { admit, errorOf, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
let agent: Agent;
beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN) });
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

/** The raw headers of an answer (fetch hides some for HEAD). */
function headersOf(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    const req = request(stack.base + path, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HEAD', () => {
  it('sends the Content-Length GET sends, on error answers and on /metrics', async () => {
    const operator = { authorization: `Bearer ${TOKEN}` };
    for (const [path, headers] of [
      ['/problems/prb_00000000000000000000000000', {}],
      ['/no/such/path', {}],
      ['/api/problems?limit=500', {}],
      ['/metrics', {}],
      ['/api/v1', {}],
    ] as [string, Record<string, string>][]) {
      const get = await headersOf('GET', path, headers);
      const head = await headersOf('HEAD', path, headers);
      expect(head['content-length'], path).toBeDefined();
      // /metrics changes between two scrapes (the GET itself is counted): compare that it is there only.
      if (path !== '/metrics') expect(head['content-length'], path).toBe(get['content-length']);
    }
    const metrics = await headersOf('HEAD', '/metrics', operator);
    expect(Number(metrics['content-length'])).toBeGreaterThan(1000);
  });
});

describe('a __proto__ key', () => {
  it('is refused with 400 reserved_key naming the field, never dropped', async () => {
    const problem = await send(stack.base, agent, 'POST', '/api/problems', problemBody());
    const solution = await send(stack.base, agent, 'POST', '/api/solutions', {
      problem_id: problem.body.resource.id,
      body: 'Raise the limit.',
    });
    const body = `{"signal":"worked","environment":{"os":"linux","__proto__":"x"}}`;
    const res = await send(stack.base, agent, 'POST', `/api/solutions/${solution.body.resource.id}/outcomes`, body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({
      code: 'invalid_arguments',
      reason: 'reserved_key',
      field: 'environment.__proto__',
    });
  });
});
