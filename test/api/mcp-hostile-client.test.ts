/**
 * The public tool endpoint as a hostile client uses it:
 *
 * - a batch of listings costs what as many reads cost: `resources/list`
 *   reads the newest records of every kind, so a batch of them must not
 *   pass as one read;
 * - a resource URI that is not a valid percent-encoding is Invalid params,
 *   never an internal error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.ts';

const READ_LIMIT = 50;
let stack: Stack;

beforeAll(async () => {
  // A long window, so no window boundary falls between the requests of a test.
  stack = await startStack(
    { READ_RATE_LIMIT: String(READ_LIMIT), READ_RATE_WINDOW_SECONDS: '3600' },
    { worker: false },
  );
});
afterAll(() => stack?.close());

/** One raw JSON-RPC POST to /mcp/read from its own client address (the stack trusts no proxy, so all share one). */
async function post(body: unknown) {
  const res = await fetch(`${stack.base}/mcp/read`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), body: await res.json() };
}
const rpc = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('batches', () => {
  it('charges a batch of resources/list one read per listing, as many collection reads would', async () => {
    const first = await post(rpc(1, 'ping'));
    const spent = READ_LIMIT - Number(first.remaining);
    const batch = Array.from({ length: 20 }, (_, i) => rpc(i + 2, 'resources/list'));
    const answer = await post(batch);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(20);
    expect(Number(answer.remaining)).toBe(READ_LIMIT - spent - 20);
    // Another batch spends 20 more; then fewer than 20 are left, and the next batch is refused before any of it runs.
    expect(Number((await post(batch)).remaining)).toBe(READ_LIMIT - spent - 40);
    const refused = await post(batch);
    expect(refused.status).toBe(429);
  });
});

describe('resources/read arguments', () => {
  let direct: Stack;
  beforeAll(async () => {
    direct = await startStack({}, { worker: false });
  });
  afterAll(() => direct?.close());

  const call = async (body: unknown) => {
    const res = await fetch(`${direct.base}/mcp/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      result?: { isError?: boolean; structuredContent: { error: Record<string, unknown> } };
      error?: { code: number; data: { error: Record<string, unknown> } };
    };
  };

  it('answers a resource URI with a broken percent-encoding as Invalid params, never an internal error', async () => {
    const answer = await call(
      rpc(1, 'resources/read', { uri: `${direct.config.PUBLIC_ORIGIN}/problems/%E0%A4%A.json` }),
    );
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.data.error).toMatchObject({ code: 'invalid_arguments' });
  });
});
