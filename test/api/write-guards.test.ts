/**
 * The two checks every contribution passes on its way in: secrets are
 * replaced before anything is queued or stored, and a contribution that
 * repeats an existing record is refused with 409 `duplicate_contribution`
 * naming it. Over HTTP and the tool protocol, against the real API, worker,
 * PostgreSQL and Redis.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretMarker } from '../../core/redact-secrets.ts';
import { OperationResultSchema } from '../../core/schemas/responses.ts';
import { admit, errorOf, eventually, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';

let stack: Stack;
let author: Agent;
let other: Agent;
let tools: Client;

beforeAll(async () => {
  stack = await startStack({}, { captureLogs: true });
  author = await admit(stack.base);
  other = await admit(stack.base);
  tools = new Client({ name: 'write-guards-test', version: '1.0.0' });
  await tools.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/participate`), {
      requestInit: { headers: { Authorization: `Bearer ${other.secret}` } },
    }),
  );
});
afterAll(async () => {
  await tools?.close();
  await stack?.close();
});

type Result = CallToolResult & { structuredContent?: Record<string, any> };
const callTool = async (name: string, args: Record<string, unknown>) =>
  (await tools.callTool({ name, arguments: { idempotency_key: newKey(), ...args } })) as Result;

/** A token of GitHub's classic shape, built so that no literal in the repository looks like one. */
const githubToken = () => ['gh', 'p_', 'Zq8', 'x'.repeat(30), 'R2d'].join('');

/** Every place a stored secret could hide: tables, the queue's Redis keys, projections, logs. */
async function everywhere(): Promise<string> {
  // Search documents included, once they reflect every commit.
  await searchDocumentsCaughtUp(stack.pool);
  const tables = await stack.pool.query(`
    SELECT (SELECT coalesce(string_agg(row_to_json(r)::text, ''), '') FROM problem_revisions r)
        || (SELECT coalesce(string_agg(row_to_json(r)::text, ''), '') FROM solution_revisions r)
        || (SELECT coalesce(string_agg(row_to_json(o)::text, ''), '') FROM operations o)
        || (SELECT coalesce(string_agg(d.text_norm || d.snippet, ''), '') FROM search_documents d) AS all`);
  return tables.rows[0].all + stack.logs.join('\n');
}

describe('secrets in contributions', () => {
  it('replaces them before storing and names the redacted fields in the receipt', async () => {
    const token = githubToken();
    const password = ['s3cr', 'etPa55', 'word'].join('');
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({
        title: 'git push fails with a token in the remote',
        error_literal: `remote: Invalid username or token ${token}\nfatal: Authentication failed for 'https://github.com/o/r.git/'`,
        body: `Cloned with https://deploy:${password}@github.com/o/r.git`,
        product: 'git',
      }),
    );
    expect(res.status).toBe(201);
    expect(OperationResultSchema.parse(res.body).redacted).toEqual(['body', 'error_literal']);

    const id = res.body.resource.id as string;
    const page = await eventually(async () => {
      const r = await fetch(`${stack.base}/problems/${id}.json`);
      return r.status === 200 ? r.json() : null;
    });
    expect(page.error_literal).toBe(
      `remote: Invalid username or token ${secretMarker('github-token')}\nfatal: Authentication failed for 'https://github.com/o/r.git/'`,
    );
    expect(page.body).toBe(`Cloned with https://deploy:${secretMarker('url-password')}@github.com/o/r.git`);
    const stored = await everywhere();
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(password);
  });

  it('refuses with 400 naming the field, and stores nothing, when a marker would make a field longer than its limit', async () => {
    const password = ['Pw9', 'x'.repeat(5)].join('');
    const title = `${'t'.repeat(180)} pass=${password}`;
    const before = Number((await stack.pool.query('SELECT count(*) AS n FROM problem_revisions')).rows[0].n);
    const res = await send(stack.base, author, 'POST', '/api/problems', problemBody({ title }));
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', field: 'title' });
    expect(Number((await stack.pool.query('SELECT count(*) AS n FROM problem_revisions')).rows[0].n)).toBe(before);
    expect(await everywhere()).not.toContain(password);
  });

  it('answers an empty list when nothing was redacted', async () => {
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({ title: 'Nothing secret in here' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.redacted).toEqual([]);
  });

  it('replays the same receipt, redacted fields included, for the same key', async () => {
    const key = newKey();
    const body = problemBody({ title: 'Replayed redaction', body: `Authorization: Bearer ${githubToken()}` });
    const first = await send(stack.base, author, 'POST', '/api/problems', body, { key });
    const again = await send(stack.base, author, 'POST', '/api/problems', body, { key });
    expect(first.body.redacted).toEqual(['body']);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
  });

  it('redacts tool-protocol writes the same way', async () => {
    const result = await callTool(
      'create_problem',
      problemBody({
        title: 'Tool write with a key inside',
        body: `export GITHUB_TOKEN=${githubToken()}`,
      }),
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'committed', redacted: ['body'] });
    expect(await everywhere()).not.toContain(githubToken());
  });

  it('finds the stored record when the pasted query carries a different token of the same shape', async () => {
    const literal = (token: string) =>
      `slack_sdk.errors.SlackApiError: The request to the Slack API failed. invalid_auth for ${token}`;
    const stored = ['xo', 'xb-', '1'.repeat(12), '-', '2'.repeat(13), '-', 'a'.repeat(24)].join('');
    const pasted = ['xo', 'xb-', '9'.repeat(12), '-', '8'.repeat(13), '-', 'b'.repeat(24)].join('');
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({ title: 'Slack invalid_auth', product: 'slack-sdk', error_literal: literal(stored) }),
    );
    expect(res.body.redacted).toEqual(['error_literal']);
    // Search documents follow a commit within the search lag, not at the receipt.
    const found = await eventually(async () => {
      const page = await (
        await fetch(`${stack.base}/api/v1/search?mode=exact&q=${encodeURIComponent(literal(pasted))}`)
      ).json();
      return page.items.length > 0 && page;
    });
    expect(found.items[0]).toMatchObject({ id: res.body.resource.id, match: { kind: 'exact' } });
  });
});

describe('duplicate contributions', () => {
  const LITERAL =
    'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)';
  let problemId: string;

  beforeAll(async () => {
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({
        title: 'Postgres refuses connections at start',
        product: 'node-postgres',
        error_literal: LITERAL,
      }),
    );
    problemId = res.body.resource.id;
  });

  it('refuses a problem whose literal from another machine and product equal an existing one, naming it', async () => {
    const res = await send(
      stack.base,
      other,
      'POST',
      '/api/problems',
      problemBody({
        title: 'Cannot reach the database',
        product: 'Node-Postgres',
        error_literal:
          'error: connect ECONNREFUSED 10.0.3.7:5433\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1610:16)',
      }),
    );
    expect(res.status).toBe(409);
    expect(errorOf(res.body)).toMatchObject({
      code: 'duplicate_contribution',
      status: 409,
      reason: 'duplicate_problem',
      field: 'error_literal',
      retryable: false,
      existing: {
        type: 'problem',
        id: problemId,
        links: {
          html: `/problems/${problemId}`,
          json: `/problems/${problemId}.json`,
          markdown: `/problems/${problemId}.md`,
        },
      },
    });
    expect(
      Number(
        (
          await stack.pool.query('SELECT count(*) FROM problem_revisions WHERE error_literal LIKE $1', [
            '%ECONNREFUSED%',
          ])
        ).rows[0].count,
      ),
    ).toBe(1);
  });

  it('accepts the same literal for another product, and problems without a literal', async () => {
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({ title: 'Same error, other client', product: 'psycopg', error_literal: LITERAL }),
    );
    expect(res.status).toBe(201);
    const a = await send(stack.base, author, 'POST', '/api/problems', problemBody({ title: 'No literal' }));
    const b = await send(stack.base, author, 'POST', '/api/problems', problemBody({ title: 'No literal' }));
    expect([a.status, b.status]).toEqual([201, 201]);
  });

  it('refuses a solution whose normalized body equals another on the same problem, and allows it on another problem', async () => {
    const text = 'Wait for pg_isready before starting: `until pg_isready -h 127.0.0.1; do sleep 1; done`';
    const first = await send(stack.base, author, 'POST', '/api/solutions', { problem_id: problemId, body: text });
    expect(first.status).toBe(201);
    const again = await send(stack.base, other, 'POST', '/api/solutions', {
      problem_id: problemId,
      body: 'wait for pg_isready before starting:  until pg_isready -h 10.0.0.9; do sleep 1; done',
    });
    expect(again.status).toBe(409);
    const solutionId = first.body.resource.id;
    expect(errorOf(again.body)).toMatchObject({
      code: 'duplicate_contribution',
      reason: 'duplicate_solution',
      field: 'body',
      existing: { type: 'solution', id: solutionId, links: { html: `/solutions/${solutionId}` } },
    });
    const elsewhere = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({
        title: 'Another problem',
        error_literal: 'FATAL: the database system is starting up',
        product: 'postgresql',
      }),
    );
    const moved = await send(stack.base, other, 'POST', '/api/solutions', {
      problem_id: elsewhere.body.resource.id,
      body: text,
    });
    expect(moved.status).toBe(201);
  });

  it('lets exactly one of many concurrent identical problems through', async () => {
    const body = problemBody({
      title: 'Raced',
      product: 'redis',
      error_literal: 'Error: connect ECONNREFUSED 127.0.0.1:6379 (raced)',
    });
    const answers = await Promise.all(
      [author, other, author, other, author, other].map((agent) =>
        send(stack.base, agent, 'POST', '/api/problems', body),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 201)!.body.resource.id;
    for (const a of answers.filter((x) => x.status === 409)) expect(errorOf(a.body).existing?.id).toBe(winner);
  });

  it('answers the same refusal over the tool protocol', async () => {
    const result = await callTool(
      'create_problem',
      problemBody({ title: 'Again, by tool', product: 'node-postgres', error_literal: LITERAL }),
    );
    expect(result.isError).toBe(true);
    expect(errorOf(result.structuredContent)).toMatchObject({
      code: 'duplicate_contribution',
      reason: 'duplicate_problem',
      existing: { type: 'problem', id: problemId },
    });
  });
});
