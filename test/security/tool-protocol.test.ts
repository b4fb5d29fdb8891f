/**
 * Hole 1 and point 11, replayed on the tool protocol (the public read
 * endpoint /mcp/read for anonymous calls, /mcp/participate with a credential). One anonymous POST with
 * a batch of 100 get_problem calls answered 145 MB and spent one unit of the
 * read budget; malformed arguments answered -32603 with a raw dump; an empty
 * batch answered 202; an unknown tool's message doubled its prefix. Now a
 * batch is bounded, each call spends its own budget, the answers of one
 * request are bounded, and the protocol errors are the JSON-RPC ones.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const MAX_BATCH = 5;
const MAX_ANSWER = 300_000;
let stack: Stack;
let agent: Agent;
let problemId: string;

beforeAll(async () => {
  stack = await startStack({
    MCP_MAX_BATCH: String(MAX_BATCH),
    MCP_MAX_ANSWER_BYTES: String(MAX_ANSWER),
    // Per-call accounting here; the size of answers is paid for below ('tool-protocol answers paid by size').
    MCP_READ_UNIT_BYTES: String(10 * MAX_ANSWER),
    READ_RATE_LIMIT: '40',
    READ_RATE_WINDOW_SECONDS: '86400',
    WRITE_RATE_LIMIT: '8',
    WRITE_RATE_WINDOW_SECONDS: '86400',
  });
  agent = await admit(stack.base);
  problemId = (await send(stack.base, agent, 'POST', '/api/problems', problemBody({ body: 'p'.repeat(15_000) }))).body
    .resource.id;
  for (let i = 0; i < 3; i++) {
    const res = await send(stack.base, agent, 'POST', '/api/solutions', {
      problem_id: problemId,
      body: `${i} ${'s'.repeat(15_000)}`,
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => stack.close());

const call = (id: number, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** Anonymous calls go to the public read endpoint; with a credential, to the protected one. Both share these bounds. */
async function post(body: unknown, secret?: string) {
  const res = await fetch(`${stack.base}${secret ? '/mcp/participate' : '/mcp/read'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(secret ? { authorization: `Bearer ${secret}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, size: text.length, body: text ? JSON.parse(text) : null };
}

describe('tool-protocol batches', () => {
  it('refuse a batch larger than the bound with 400, a JSON-RPC Invalid Request with the Error shape as data', async () => {
    const res = await post(Array.from({ length: MAX_BATCH + 1 }, (_, i) => call(i, 'get_problem', { id: problemId })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.InvalidRequest, message: expect.any(String) },
    });
    expect(errorOf(res.body.error.data)).toMatchObject({ code: 'invalid_arguments', reason: 'batch_too_large' });
  });

  it('bound batches on the protected endpoint the same way', async () => {
    const res = await post(
      Array.from({ length: MAX_BATCH + 1 }, (_, i) => call(i, 'whoami', {})),
      agent.secret,
    );
    expect(res.status).toBe(400);
    expect(errorOf(res.body.error.data).reason).toBe('batch_too_large');
  });

  it('refuse an empty batch as a JSON-RPC Invalid Request', async () => {
    const res = await post([]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(ErrorCode.InvalidRequest);
    expect(errorOf(res.body.error.data).reason).toBe('empty_batch');
  });

  it('spend one unit of the read budget per read call, a batch of N costing N', async () => {
    const single = await post(call(1, 'get_problem', { id: problemId, limit: 1 }));
    const before = Number(single.headers.get('ratelimit-remaining'));
    const batch = await post(Array.from({ length: 4 }, (_, i) => call(i, 'get_problem', { id: problemId, limit: 1 })));
    expect(batch.status).toBe(200);
    expect(Number(batch.headers.get('ratelimit-remaining'))).toBe(before - 4);
  });

  it('bound the answers of one request: calls past the bound get answer_too_large instead of their result', async () => {
    const one = await post(call(1, 'get_problem', { id: problemId }));
    const resultSize = JSON.stringify(one.body.result).length;
    // Each answer is large enough that the bound admits some calls of the batch, not all.
    expect(resultSize).toBeGreaterThan(MAX_ANSWER / MAX_BATCH);
    expect(resultSize).toBeLessThan(MAX_ANSWER);
    const res = await post(Array.from({ length: MAX_BATCH }, (_, i) => call(i, 'get_problem', { id: problemId })));
    expect(res.status).toBe(200);
    expect(res.size).toBeLessThan(MAX_ANSWER + 20_000);
    const results = res.body.map((r: { result: { isError?: boolean; structuredContent: unknown } }) => r.result);
    // Calls run side by side: whichever finish first within the bound are answered.
    expect(results.filter((r: { isError?: boolean }) => !r.isError).length).toBeGreaterThan(0);
    const refused = results.filter((r: { isError?: boolean }) => r.isError);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(errorOf(r.structuredContent)).toMatchObject({ code: 'invalid_arguments', reason: 'answer_too_large' });
  });

  it('bound resource reads by the same answer budget: reads past it get -32602 answer_too_large', async () => {
    const read = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'resources/read',
      params: { uri: `http://service.test/problems/${problemId}.json` },
    });
    const res = await post(Array.from({ length: MAX_BATCH }, (_, i) => read(i)));
    expect(res.status).toBe(200);
    expect(res.size).toBeLessThan(MAX_ANSWER + 20_000);
    expect(res.body.filter((r: { result?: unknown }) => r.result).length).toBeGreaterThan(0);
    const refused = res.body.filter((r: { error?: unknown }) => r.error);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.error.code).toBe(ErrorCode.InvalidParams);
      expect(errorOf(r.error.data)).toMatchObject({ reason: 'answer_too_large' });
    }
  });

  it('spend the write budget once per write call in a batch', async () => {
    const writes = Array.from({ length: MAX_BATCH }, (_, i) =>
      call(i, 'create_problem', {
        idempotency_key: newKey(),
        ...problemBody({ title: `Batch write ${i}`, body: `Body ${i}` }),
      }),
    );
    // The setup spent four writes of the eight.
    const res = await post(writes, agent.secret);
    const refused = res.body.filter((r: { result: { isError?: boolean } }) => r.result.isError);
    expect(refused.length).toBe(1);
    expect(errorOf(refused[0].result.structuredContent)).toMatchObject({
      code: 'rate_limited',
      reason: 'write_rate_limited',
    });
  });
});

describe('tool-protocol edges', () => {
  it('answer malformed tool params with -32602 Invalid params naming the field, not -32603', async () => {
    for (const [params, field] of [
      [{ name: 'get_problem', arguments: 'not an object' }, 'params.arguments'],
      [{ name: 'get_problem', arguments: [1, 2] }, 'params.arguments'],
      [{ name: 42, arguments: {} }, 'params.name'],
    ] as const) {
      const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params });
      expect(res.body.error, JSON.stringify(params)).toMatchObject({ code: ErrorCode.InvalidParams });
      expect(res.body.error.message).toContain(field);
      expect(res.body.error.message).not.toMatch(/internal|"code":|expected/i);
      expect(errorOf(res.body.error.data).reason).toBe('invalid_tool_params');
    }
    // params that are not even a JSON-RPC structured value: not a valid message at all.
    const invalid = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: 'just a string' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe(ErrorCode.InvalidRequest);
    expect(errorOf(invalid.body.error.data)).toMatchObject({ code: 'invalid_arguments', reason: 'protocol_error' });
  });

  it('name an unknown tool in a message with the protocol prefix once', async () => {
    const client = new Client({ name: 'edge-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/read`)));
    try {
      const failure = await client.callTool({ name: 'drop_tables', arguments: {} }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(McpError);
      expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((failure as McpError).message).toBe('MCP error -32602: Unknown tool "drop_tables".');
    } finally {
      await client.close();
    }
  });
});

describe('the read budget', () => {
  it('run out of read budget past the bound, as the same reads over HTTP would', async () => {
    let last = await post(call(1, 'search', { q: 'x' }));
    for (let i = 0; i < 10 && last.status !== 429; i++) {
      last = await post(Array.from({ length: MAX_BATCH }, (_, j) => call(j, 'search', { q: 'x' })));
    }
    expect(last.status).toBe(429);
    expect(errorOf(last.body)).toMatchObject({ code: 'rate_limited', reason: 'read_rate_limited' });
  });
});

describe('tool-protocol answers paid by size', () => {
  const UNIT = 1_024;
  let sized: Stack;
  beforeAll(async () => {
    sized = await startStack(
      { MCP_READ_UNIT_BYTES: String(UNIT), READ_RATE_LIMIT: '100000', READ_RATE_WINDOW_SECONDS: '86400' },
      { worker: false },
    );
  });
  afterAll(() => sized.close());

  const postTo = async (body: unknown) => {
    const res = await fetch(`${sized.base}/mcp/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, bytes, remaining: Number(res.headers.get('ratelimit-remaining')) };
  };
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  it('spend one read per unit of bytes a batch of listings returns, not one per POST', async () => {
    const first = await postTo(list(1));
    const batch = await postTo(Array.from({ length: 5 }, (_, i) => list(i)));
    expect(batch.status).toBe(200);
    expect(batch.bytes).toBeGreaterThan(5 * UNIT);
    expect(first.remaining - batch.remaining).toBe(Math.ceil(batch.bytes / UNIT));
  });

  it('refuse the bytes with 429 once the address has spent its reads', async () => {
    const small = await startStack(
      { MCP_READ_UNIT_BYTES: String(UNIT), READ_RATE_LIMIT: '20', READ_RATE_WINDOW_SECONDS: '86400' },
      { worker: false },
    );
    try {
      const send5 = () =>
        fetch(`${small.base}/mcp/read`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(Array.from({ length: 5 }, (_, i) => list(i))),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await send5()).status);
      expect(statuses).toContain(429);
    } finally {
      await small.close();
    }
  });
});
