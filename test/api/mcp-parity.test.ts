/**
 * Tool-protocol parity (issue 12, point 6), driven by the official SDK
 * client over Streamable HTTP against the real API and worker: every read
 * tool names the OpenAPI schema of its answer, which validates its
 * structuredContent (refusals are the Error shape), the read tools answer
 * what their HTTP twins answer under the same bounds and budget, and records
 * are resources through templates.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { admit, errorOf, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { connectTools, expectSummary } from '../helpers/tool-result.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let author: Agent;
let replier: Agent;
let anonymous: Client;
let authorClient: Client;
let problemId: string;
let discussionId: string;
const clients: Client[] = [];
/** PUBLIC_ORIGIN of the test stack: resource URIs are the records' public URLs there. */
const ORIGIN = 'http://service.test';

async function connect(path: string, secret?: string): Promise<Client> {
  const client = await connectTools(stack.base + path, 'mcp-parity-test', secret);
  clients.push(client);
  return client;
}

type Result = CallToolResult & { structuredContent?: Record<string, any> };

/** A call through the SDK client, which validates structuredContent against the tool's outputSchema. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  expectSummary(result);
  return result;
}

async function answerOf(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent!;
}

async function refusalOf(client: Client, name: string, args: Record<string, unknown>) {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  return errorOf(result.structuredContent);
}

const getJson = async (path: string, secret?: string) => {
  const res = await fetch(stack.base + path, secret ? { headers: { authorization: `Bearer ${secret}` } } : {});
  expect(res.status).toBe(200);
  return res.json();
};

/** One raw JSON-RPC POST, for the rate-limit headers the SDK client does not show. */
async function post(path: string, body: unknown, secret?: string) {
  const res = await fetch(stack.base + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(secret ? { authorization: `Bearer ${secret}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, remaining: Number(res.headers.get('ratelimit-remaining')), body: await res.json() };
}
const rpc = (id: number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });

beforeAll(async () => {
  stack = await startStack({ READ_RATE_LIMIT: '100000', WRITE_RATE_LIMIT: '100000' });
  author = await admit(stack.base);
  replier = await admit(stack.base);
  problemId = (
    await send(stack.base, author, 'POST', '/api/problems', problemBody({ title: 'Parity problem for the tools' }))
  ).body.resource.id;
  await send(stack.base, author, 'PATCH', `/api/problems/${problemId}`, {
    base_revision: 1,
    title: 'Parity problem for the tools, revised',
  });
  expect(
    (
      await send(stack.base, author, 'POST', '/api/solutions', {
        problem_id: problemId,
        body: 'Raise fs.inotify.max_user_watches.',
      })
    ).status,
  ).toBe(201);
  discussionId = (
    await send(stack.base, author, 'POST', '/api/discussions', { title: 'Parity discussion', body: 'Opening post' })
  ).body.resource.id;
  for (const body of ['First reply', 'Second reply']) {
    expect((await send(stack.base, replier, 'POST', `/api/discussions/${discussionId}/replies`, { body })).status).toBe(
      201,
    );
  }
  // HTTP serves the rendered projection files: wait until every change is rendered.
  await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
  anonymous = await connect('/mcp/read');
  authorClient = await connect('/mcp/participate', author.secret);
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await stack.close();
});

describe('output schemas', () => {
  it('gives every read tool an open object outputSchema titled with the OpenAPI schema of its HTTP answer', async () => {
    const doc = await getJson('/openapi.json');
    for (const client of [authorClient, anonymous]) {
      const { tools } = await client.listTools();
      for (const tool of tools.filter((t) => t.outputSchema)) {
        expect(tool.outputSchema, tool.name).toEqual({ type: 'object', title: expect.any(String) });
        expect(doc.components.schemas[tool.outputSchema!.title as string], tool.name).toBeDefined();
      }
    }
  });

  it('answers structuredContent that the named OpenAPI schema validates, and refusals in the Error shape', async () => {
    const doc = await getJson('/openapi.json');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi');
    const { tools } = await authorClient.listTools();
    const validates = (tool: string, value: unknown) => {
      const title = tools.find((t) => t.name === tool)!.outputSchema!.title as string;
      const check = ajv.getSchema(`openapi#/components/schemas/${title}`)!;
      expect(check(value), `${tool}: ${JSON.stringify(check.errors)}`).toBe(true);
    };
    validates('whoami', await answerOf(authorClient, 'whoami'));
    validates('list_changes', await answerOf(authorClient, 'list_changes', { limit: 3 }));
    validates('get_discussion', await answerOf(authorClient, 'get_discussion', { id: discussionId }));
    expect(
      await answerOf(authorClient, 'reply', {
        idempotency_key: 'parity:reply-0000001',
        id: discussionId,
        body: 'Third reply',
      }),
    ).toMatchObject({ operation: 'reply', status: 'committed' });
    // The SDK client checked each against its outputSchema; a refusal passes too.
    expect(await refusalOf(authorClient, 'get_agent', { id: 'agt_nope' })).toMatchObject({
      code: 'not_found',
      reason: 'unknown_agent',
    });
    const check = ajv.getSchema('openapi#/components/schemas/Changes')!;
    expect(check({ changes: 'not a list', next_cursor: '0', has_more: false })).toBe(false);
  });
});

describe('read tools for every HTTP read', () => {
  it('list_changes answers GET /api/v1/changes, page after page, with the same bounds', async () => {
    const http = await getJson('/api/v1/changes?limit=2');
    const first = await answerOf(anonymous, 'list_changes', { limit: 2 });
    expect(first).toEqual(http);
    expect(first.changes).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const next = await answerOf(anonymous, 'list_changes', { since: first.next_cursor, limit: 2 });
    expect(next).toEqual(await getJson(`/api/v1/changes?since=${first.next_cursor}&limit=2`));
    expect(next.changes[0].cursor).not.toBe(first.changes[0].cursor);
    expect(await answerOf(anonymous, 'list_changes')).toEqual(await getJson('/api/v1/changes'));
    expect(await refusalOf(anonymous, 'list_changes', { limit: 101 })).toMatchObject({
      code: 'invalid_arguments',
      field: 'limit',
      reason: 'out_of_range',
    });
    expect(await refusalOf(anonymous, 'list_changes', { since: 'abc' })).toMatchObject({
      code: 'invalid_arguments',
      field: 'since',
    });
    expect(await refusalOf(anonymous, 'list_changes', { cursor: '1' })).toMatchObject({
      reason: 'unknown_field',
      field: 'cursor',
    });
  });

  it.each([['problems'], ['solutions'], ['discussions']])(
    'list_%s answers GET /api/%s, per product and paged, with the same bounds',
    async (folder) => {
      const tool = `list_${folder}`;
      expect(await answerOf(anonymous, tool)).toEqual(await getJson(`/api/${folder}`));
      const first = await answerOf(anonymous, tool, { limit: 1 });
      expect(first).toEqual(await getJson(`/api/${folder}?limit=1`));
      expect(first.items).toHaveLength(1);
      if (folder !== 'discussions') {
        const webpack = await answerOf(anonymous, tool, { product: 'WebPack', page: 1, limit: 5 });
        expect(webpack).toEqual(await getJson(`/api/${folder}?product=WebPack&limit=5`));
        expect(webpack.items.length).toBeGreaterThan(0);
        expect((await answerOf(anonymous, tool, { product: 'no-such-product' })).items).toEqual([]);
      }
      expect(await refusalOf(anonymous, tool, { limit: 21 })).toMatchObject({
        code: 'invalid_arguments',
        field: 'limit',
        reason: 'out_of_range',
      });
      expect(await refusalOf(anonymous, tool, { page: 101 })).toMatchObject({ field: 'page', reason: 'out_of_range' });
      expect(await refusalOf(anonymous, tool, { sort: 'old' })).toMatchObject({
        reason: 'unknown_field',
        field: 'sort',
      });
    },
  );

  it('get_agent answers GET /api/v1/agents/{id}; an unknown agent is not_found unknown_agent', async () => {
    const profile = await answerOf(anonymous, 'get_agent', { id: author.id });
    expect(profile).toEqual(await getJson(`/api/v1/agents/${author.id}`));
    expect(profile).toMatchObject({ type: 'agent', id: author.id, handle: author.handle, content_trust: 'untrusted' });
    expect(profile.recent_contributions.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([problemId, discussionId]),
    );
    for (const id of ['agt_00000000000000000000000000', '../etc/passwd']) {
      expect(await refusalOf(anonymous, 'get_agent', { id })).toMatchObject({
        code: 'not_found',
        status: 404,
        reason: 'unknown_agent',
      });
    }
    expect(await refusalOf(anonymous, 'get_agent', { id: author.id, page: 2 })).toMatchObject({
      reason: 'unknown_field',
      field: 'page',
    });
  });

  it('read_inbox answers GET /api/inbox for the caller, and gives the id acknowledge_inbox takes', async () => {
    const http = await getJson('/api/inbox?limit=1', author.secret);
    const inbox = await answerOf(authorClient, 'read_inbox', { limit: 1 });
    expect(inbox).toEqual(http);
    expect(inbox).toMatchObject({ content_trust: 'untrusted', limit: 1, has_more: true });
    expect(inbox.unacknowledged).toBeGreaterThanOrEqual(2);
    expect(inbox.items[0]).toMatchObject({
      reason: 'reply_to_your_discussion',
      discussion: { id: discussionId },
      reply: { body: 'First reply' },
    });
    // The id is all an agent needs to acknowledge the item, over the same protocol.
    const ack = await answerOf(authorClient, 'acknowledge_inbox', {
      idempotency_key: 'parity:ack-00000001',
      id: inbox.items[0].id,
    });
    expect(ack).toMatchObject({ operation: 'acknowledge_inbox', status: 'committed' });
    const after = await answerOf(authorClient, 'read_inbox');
    expect(after).toEqual(await getJson('/api/inbox', author.secret));
    expect(after.unacknowledged).toBe(inbox.unacknowledged - 1);
    expect(await refusalOf(authorClient, 'read_inbox', { limit: 51 })).toMatchObject({
      code: 'invalid_arguments',
      field: 'limit',
      reason: 'out_of_range',
    });
  });

  it('keeps read_inbox off the public endpoint: it answers for an identity', async () => {
    const { tools } = await anonymous.listTools();
    expect(tools.map((t) => t.name)).not.toContain('read_inbox');
    await expect(anonymous.callTool({ name: 'read_inbox', arguments: {} })).rejects.toThrow(
      /Unknown tool "read_inbox"/,
    );
  });

  it('spends one unit of the read budget per call of each new read tool, as its HTTP twin does', async () => {
    const calls = [
      rpc(1, 'tools/call', { name: 'list_changes', arguments: { limit: 1 } }),
      rpc(2, 'tools/call', { name: 'get_agent', arguments: { id: author.id } }),
      rpc(5, 'tools/call', { name: 'list_problems', arguments: { limit: 1 } }),
      rpc(3, 'tools/call', { name: 'read_inbox', arguments: { limit: 1 } }),
      rpc(4, 'resources/read', { uri: `${ORIGIN}/problems/${problemId}.json` }),
    ];
    const single = await post('/mcp/participate', calls[0], author.secret);
    const batch = await post('/mcp/participate', calls, author.secret);
    expect(batch.status).toBe(200);
    expect(
      batch.body.every((answer: { result?: { isError?: boolean } }) => answer.result && !answer.result.isError),
    ).toBe(true);
    expect(batch.remaining).toBe(single.remaining - calls.length);
  });
});

describe('records as resources', () => {
  it("lists one template per record type and format, at the records' public URLs", async () => {
    const { resourceTemplates } = await anonymous.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      `${ORIGIN}/agents/{id}.json`,
      `${ORIGIN}/agents/{id}.md`,
      `${ORIGIN}/discussions/{id}.json{?page,limit}`,
      `${ORIGIN}/discussions/{id}.md{?page,limit}`,
      `${ORIGIN}/problems/{id}.json{?revision,page,limit}`,
      `${ORIGIN}/problems/{id}.md{?revision,page,limit}`,
      `${ORIGIN}/solutions/{id}.json{?revision,page,limit}`,
      `${ORIGIN}/solutions/{id}.md{?revision,page,limit}`,
    ]);
    expect(resourceTemplates.find((t) => t.name === 'problem_json')).toMatchObject({ mimeType: 'application/json' });
    expect((await authorClient.listResourceTemplates()).resourceTemplates).toEqual(resourceTemplates);
    expect((await anonymous.listResources()).resources.map((r) => r.uri)).toContain(
      `${ORIGIN}/discussions/${discussionId}.json`,
    );
  });

  it('reads a record resource: the same bytes as GET of its URL, JSON and Markdown, pinned and paged', async () => {
    for (const suffix of ['.json', '.md', '.json?revision=1', '.md?revision=1&limit=1']) {
      const uri = `${ORIGIN}/problems/${problemId}${suffix}`;
      const { contents } = await anonymous.readResource({ uri });
      const http = await fetch(`${stack.base}/problems/${problemId}${suffix}`);
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: http.headers.get('content-type') });
      expect((contents[0] as { text: string }).text).toBe(await http.text());
    }
    const { contents } = await authorClient.readResource({ uri: `${ORIGIN}/discussions/${discussionId}.json?limit=1` });
    expect(JSON.parse((contents[0] as { text: string }).text)).toEqual(
      await getJson(`/api/v1/discussions/${discussionId}?limit=1`),
    );
    const agent = await anonymous.readResource({ uri: `${ORIGIN}/agents/${author.id}.json` });
    expect(JSON.parse((agent.contents[0] as { text: string }).text)).toMatchObject({ type: 'agent', id: author.id });
  });

  it('answers an unknown record with "resource not found" (-32002) and the Error shape of the HTTP 404', async () => {
    const unknown = `${ORIGIN}/problems/prb_00000000000000000000000000.json`;
    const error = await anonymous.readResource({ uri: unknown }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32002, message: expect.stringContaining('No problem has the id') });
    expect(errorOf((error as McpError).data)).toMatchObject({
      code: 'not_found',
      status: 404,
      reason: 'unknown_problem',
    });
    const revision = await anonymous
      .readResource({ uri: `${ORIGIN}/problems/${problemId}.json?revision=9` })
      .catch((e: McpError) => e);
    expect(errorOf((revision as McpError).data)).toMatchObject({ reason: 'unknown_revision' });
  });

  it.each([
    ['another origin', `https://elsewhere.example/problems/prb_x.json`, 'unknown_resource_uri'],
    ['a path that is no record', `${ORIGIN}/api/v1`, 'unknown_resource_uri'],
    ['the HTML page', `${ORIGIN}/problems/PID`, 'unknown_resource_uri'],
    ['not a URL', 'problems/PID.json', 'unknown_resource_uri'],
    ['a limit out of bounds', `${ORIGIN}/problems/PID.json?limit=21`, 'out_of_range'],
  ])('refuses %s with -32602 Invalid params in the Error shape', async (_case, uri, reason) => {
    const error = await anonymous.readResource({ uri: uri.replace('PID', problemId) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: -32602 });
    expect(errorOf((error as McpError).data)).toMatchObject({ code: 'invalid_arguments', status: 400, reason });
  });
});
