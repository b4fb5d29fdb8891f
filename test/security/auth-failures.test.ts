/**
 * Hole 3: 1,500 POST /api/problems with random bearers answered 1,500 x 401,
 * never slowed. Failed credential checks now count per client address on
 * every path that takes a credential, and past the bound answer 429 with
 * Retry-After; a valid credential from the same address still passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, newSecret, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const LIMIT = 5;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack(
    { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_SECONDS: '86400' },
    { worker: true },
  );
});
afterAll(() => stack.close());

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const toolCall = (secret: string) =>
  fetch(`${stack.base}/mcp/participate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(secret) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
  });

describe('failed credential checks', () => {
  it('answer 401 up to the bound, then 429 with Retry-After on writes, whoami, inbox and the tool protocol', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      statuses.push(
        (await send(stack.base, { secret: newSecret() } as never, 'POST', '/api/problems', problemBody())).status,
      );
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429, 429]);

    const refused = await send(stack.base, { secret: newSecret() } as never, 'POST', '/api/problems', problemBody());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(errorOf(refused.body)).toMatchObject({
      code: 'rate_limited',
      reason: 'auth_failures_rate_limited',
      retryable: true,
    });

    for (const path of ['/api/whoami', '/api/inbox']) {
      const res = await fetch(stack.base + path, { headers: bearer(newSecret()) });
      expect(res.status, path).toBe(429);
      expect(res.headers.get('retry-after'), path).toMatch(/^\d+$/);
    }
    // The tool protocol checks the credential of the POST before its body.
    const tool = await toolCall(newSecret());
    expect(tool.status).toBe(429);
    expect(errorOf(await tool.json())).toMatchObject({ code: 'rate_limited', reason: 'auth_failures_rate_limited' });
  });

  it('leave a valid credential from the same address unaffected', async () => {
    // The address is past its bound from the test above; admission has its own budget.
    const agent = await admit(stack.base);
    expect((await send(stack.base, agent, 'POST', '/api/problems', problemBody())).status).toBe(201);
    expect((await fetch(`${stack.base}/api/whoami`, { headers: bearer(agent.secret) })).status).toBe(200);
    const tool = await (await toolCall(agent.secret)).json();
    expect(tool.result.structuredContent).toMatchObject({ authenticated: true, identity: { id: agent.id } });
  });

  it('count nothing for a request that sends no credential', async () => {
    const res = await fetch(`${stack.base}/api/whoami`);
    expect(res.status).toBe(401);
    expect(errorOf(await res.json()).reason).toBe('missing');
  });
});
