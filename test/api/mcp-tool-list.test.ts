/**
 * What the tool endpoints cost an agent's context and what they give it in
 * one call: tools/list within 16 KB per endpoint (the sizes are printed),
 * portable schemas, a title on every tool, short text summaries, the help
 * and the newest records as resources, and resolve_error answered from the
 * same search and trust as the HTTP reads.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, eventually, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { connectTools, expectSummary } from '../helpers/tool-result.ts';

/** The bound of one endpoint's tools/list answer, in bytes. */
const TOOL_LIST_BUDGET = 16 * 1024;
const ORIGIN = 'http://service.test';
const ERROR_LITERAL = 'Error: listen EADDRINUSE: address already in use 0.0.0.0:8080';
const STACK_TRACE = [
  '[2026-11-20T10:00:00.000Z] app starting',
  ERROR_LITERAL,
  '    at Server.setupListenHandle [as _listen2] (node:net:1817:16)',
  '    at listenInCluster (node:net:1865:12)',
  ...Array.from({ length: 20 }, (_, i) => `    at frame${i} (node:internal/frames:${i}:1)`),
].join('\n');

let stack: Stack;
let author: Agent;
let others: Agent[];
let anonymous: Client;
let connected: Client;
let problemId: string;
let working: string;
let failing: string;
const clients: Client[] = [];

async function connect(path: string, secret?: string): Promise<Client> {
  const client = await connectTools(stack.base + path, 'context-test', secret);
  clients.push(client);
  return client;
}

/** The bytes of a tools/list answer as a client receives it. */
async function toolListBytes(path: string, secret?: string): Promise<{ bytes: number; tools: Record<string, any>[] }> {
  const res = await fetch(stack.base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const text = await res.text();
  return { bytes: Buffer.byteLength(text), tools: JSON.parse(text).result.tools };
}

/** Every schema node under a JSON Schema, the root included. */
function* schemaNodes(schema: unknown): Generator<Record<string, unknown>> {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs')
      for (const sub of Object.values(value as object)) yield* schemaNodes(sub);
    else if (key === 'items' || key === 'additionalProperties' || key === 'propertyNames' || key === 'not')
      yield* schemaNodes(value);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      for (const sub of value as unknown[]) yield* schemaNodes(sub);
  }
}

beforeAll(async () => {
  stack = await startStack();
  author = await admit(stack.base);
  others = await Promise.all([admit(stack.base), admit(stack.base), admit(stack.base)]);
  const problem = await send(stack.base, author, 'POST', '/api/problems', {
    title: 'Server cannot listen: port already in use',
    body: 'The dev server exits at start.',
    product: 'node',
    error_literal: ERROR_LITERAL,
  });
  problemId = problem.body.resource.id;
  failing = (
    await send(stack.base, author, 'POST', '/api/solutions', { problem_id: problemId, body: 'Reinstall node_modules.' })
  ).body.resource.id;
  working = (
    await send(stack.base, author, 'POST', '/api/solutions', {
      problem_id: problemId,
      body: 'Stop the process holding the port (lsof -i :8080) or set PORT to a free one.',
    })
  ).body.resource.id;
  for (const [i, agent] of others.entries()) {
    await send(stack.base, agent, 'POST', `/api/solutions/${working}/outcomes`, {
      signal: 'worked',
      environment: { os: i === 0 ? 'linux' : 'macos' },
    });
    await send(stack.base, agent, 'POST', `/api/solutions/${failing}/outcomes`, {
      signal: 'did_not_work',
      environment: { os: 'linux' },
    });
  }
  anonymous = await connect('/mcp/read');
  connected = await connect('/mcp/participate', author.secret);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await stack.close();
});

describe('tools/list', () => {
  it('is at most 16 KB on each endpoint (the sizes are printed)', async () => {
    const read = await toolListBytes('/mcp/read');
    const participate = await toolListBytes('/mcp/participate', author.secret);
    console.info(
      `tools/list bytes: /mcp/read ${read.bytes} (${read.tools.length} tools), /mcp/participate ${participate.bytes} (${participate.tools.length} tools); budget ${TOOL_LIST_BUDGET}`,
    );
    expect(read.bytes).toBeLessThanOrEqual(TOOL_LIST_BUDGET);
    expect(participate.bytes).toBeLessThanOrEqual(TOOL_LIST_BUDGET);
  });

  it('gives every tool a title and a one-line description', async () => {
    const { tools } = await toolListBytes('/mcp/participate', author.secret);
    for (const tool of tools) {
      expect(tool.title, tool.name).toEqual(expect.any(String));
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(200);
      expect(tool.description, tool.name).not.toContain('\n');
    }
  });

  it('has portable schemas: no type arrays, no empty schema, no $schema, an object at the top', async () => {
    const { tools } = await toolListBytes('/mcp/participate', author.secret);
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema].filter(Boolean)) {
        expect(schema.type, tool.name).toBe('object');
        for (const node of schemaNodes(schema)) {
          expect(Array.isArray(node.type), `${tool.name}: ${JSON.stringify(node)}`).toBe(false);
          expect(
            Object.keys(node).filter((k) => k !== 'description').length,
            `${tool.name}: an empty schema`,
          ).toBeGreaterThan(0);
          expect(node.$schema, tool.name).toBeUndefined();
        }
      }
    }
  });
});

describe('resources', () => {
  it('lists the help documents and the newest records, each readable', async () => {
    const { resources } = await anonymous.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/agent-help/tools.md`,
        `${ORIGIN}/agent-help/authentication.md`,
        `${ORIGIN}/problems/${problemId}.json`,
        `${ORIGIN}/solutions/${working}.json`,
      ]),
    );
    for (const resource of resources) expect(resource.name && resource.mimeType, resource.uri).toBeTruthy();
    const help = await anonymous.readResource({ uri: `${ORIGIN}/agent-help/tools.md` });
    const text = (help.contents[0] as { text: string }).text;
    const { tools } = await connected.listTools();
    for (const tool of tools) expect(text).toContain(`## ${tool.name}: `);
    // The same document over HTTP, where the resource's URL says.
    expect(await (await fetch(`${stack.base}/agent-help/tools.md`)).text()).toBe(text);
    const record = await anonymous.readResource({ uri: `${ORIGIN}/problems/${problemId}.json` });
    expect(JSON.parse((record.contents[0] as { text: string }).text)).toMatchObject({ type: 'problem', id: problemId });
  });
});

describe('resolve_error', () => {
  const resolve = async (client: Client, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'resolve_error', arguments: args })) as CallToolResult & {
      structuredContent: Record<string, any>;
    };
    expect(result.isError).toBeFalsy();
    return { answer: result.structuredContent, text: expectSummary(result) };
  };

  it('answers a pasted stack trace with the problem, its solutions ranked by trust with outcomes per environment, and what to try', async () => {
    await eventually(async () => (await resolve(anonymous, { error: STACK_TRACE })).answer.problem, 30_000);
    const { answer, text } = await resolve(anonymous, { error: STACK_TRACE, environment: { os: 'linux' } });
    console.info(`resolve_error answer (text):\n${text}\nstructuredContent: ${JSON.stringify(answer)}`);
    expect(answer.query).toBe(ERROR_LITERAL);
    expect(answer.content_trust).toBe('untrusted');
    expect(answer.problem).toMatchObject({ id: problemId, match: { kind: 'exact' } });
    expect(answer.solutions.map((s: { id: string }) => s.id)).toEqual([working, failing]);
    // The trust of each is the projection's: the same numbers as get_solution.
    const solution = (await anonymous.callTool({ name: 'get_solution', arguments: { id: working } }))
      .structuredContent as Record<string, any>;
    expect(answer.solutions[0].trust).toMatchObject({
      confidence: solution.trust.confidence,
      disputed: solution.trust.disputed,
    });
    expect(answer.solutions[0].signals).toEqual(solution.signals);
    expect(answer.solutions[0].environments).toEqual(
      solution.outcomes_by_revision.find((r: { current: boolean }) => r.current).environments,
    );
    expect(answer.solutions[0].in_your_environment).toEqual([
      { key: 'os', value: 'linux', worked: 1, partially_worked: 0, did_not_work: 0 },
    ]);
    expect(answer.solutions[1].in_your_environment).toEqual([
      { key: 'os', value: 'linux', worked: 0, partially_worked: 0, did_not_work: 3 },
    ]);
    expect(answer.next).toMatchObject({ action: 'report_outcome', arguments: { id: working } });
    // Others are other records: never the problem or its solutions again.
    for (const other of answer.others) expect([problemId, working, failing]).not.toContain(other.id);
    expect(text).toContain(problemId);
  });

  it('answers the same on the protected endpoint', async () => {
    const { answer } = await resolve(connected, { error: ERROR_LITERAL });
    expect(answer.problem.id).toBe(problemId);
  });

  it('says to record the problem when nothing matches', async () => {
    const { answer } = await resolve(anonymous, { error: 'Zqxj frobnicator exploded with code 0x7f3a' });
    expect(answer.problem).toBeNull();
    expect(answer.solutions).toEqual([]);
    expect(answer.next).toMatchObject({
      action: 'create_problem',
      arguments: { error_literal: 'Zqxj frobnicator exploded with code 0x7f3a' },
    });
  });

  it('refuses an empty error naming the field', async () => {
    const result = (await anonymous.callTool({
      name: 'resolve_error',
      arguments: { error: '  ' },
    })) as CallToolResult & { structuredContent: Record<string, any> };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'invalid_arguments', field: 'error' });
  });
});
