/**
 * The serving fence against the real API, worker, PostgreSQL and Redis: an
 * operator raises it (endpoint or CLI), every write answers 503
 * `serving_fenced` before anything is queued while reads go on, a write
 * queued before the fence stays queued and commits after it, a retry with the
 * same key commits once, and the service fences itself on a read-only database.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, credentialHash } from '../../core/hash.ts';
import { FENCE_MAX_AGE_MS } from '../../core/serving-fence.ts';
import { admit, errorOf, eventually, newKey, newSecret, problemBody, send, type Agent } from '../helpers/client.ts';
import { adminUrl } from '../helpers/database.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
let agent: Agent;
let problemId: string;

beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN), COMMIT_TIMEOUT_MS: '2000' });
  agent = await admit(stack.base);
  problemId = (await send(stack.base, agent, 'POST', '/api/problems', uniqueProblem('Fence fixture problem'))).body
    .resource.id;
});
afterAll(() => stack.close());

const fenceCommand = (body: unknown) =>
  fetch(`${stack.base}/api/ops/fence`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
const raise = async (reason: string, retryAfter = 45) => {
  const res = await fenceCommand({ state: 'on', reason, retry_after: retryAfter });
  expect(res.status).toBe(200);
  return res.json();
};
const lower = async () => expect((await fenceCommand({ state: 'off' })).status).toBe(200);
const commitQueueSize = async () => {
  const commit = (await statusOf()).queues.commit as Record<string, number>;
  return Object.values(commit).reduce((sum, n) => sum + n, 0);
};
/** A problem no other write in this file resembles (duplicates may be refused). */
const uniqueProblem = (title: string) =>
  problemBody({ title, body: `Seen on build ${randomUUID()} after the upgrade.` });
const statusOf = async () =>
  (await fetch(`${stack.base}/api/ops/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
const countProblemsTitled = async (title: string) =>
  Number((await stack.pool.query('SELECT count(*) FROM problem_revisions WHERE title = $1', [title])).rows[0].count);

function expectFenced(res: { status: number; headers: Headers; body: unknown }, reason: string, retryAfter: number) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  const error = errorOf(res.body);
  expect(error).toMatchObject({ code: 'temporarily_unavailable', reason: 'serving_fenced', retry_after: retryAfter });
  expect(error.message).toContain(reason);
  return error;
}

async function mcpClient(secret: string): Promise<Client> {
  const client = new Client({ name: 'fence-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp/participate`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

describe('an operator fence', () => {
  afterEach(lower);

  it("refuses every write with 503 serving_fenced, the operator's Retry-After and reason, before queueing anything", async () => {
    const reason = 'Database migration 000042 in progress';
    const raised = await raise(reason, 45);
    expect(raised.status).toMatchObject({ writes: 'fenced', source: 'operator', reason, retry_after_seconds: 45 });
    expect(raised.status.operator).toMatchObject({
      fenced: true,
      raised_by: expect.stringContaining('operator endpoint'),
    });
    const queuedBefore = await commitQueueSize();

    const created = await send(
      stack.base,
      agent,
      'POST',
      '/api/problems',
      problemBody({ title: 'Written while fenced' }),
    );
    expectFenced(created, reason, 45);
    expectFenced(
      await send(stack.base, agent, 'PATCH', `/api/problems/${problemId}`, { title: 'Edited while fenced' }),
      reason,
      45,
    );
    expectFenced(await send(stack.base, agent, 'PATCH', '/api/profile', { bio: 'fenced' }), reason, 45);
    // Before the credential is even looked at: a fenced service answers every write alike.
    expectFenced(await send(stack.base, null, 'POST', '/api/discussions', { title: 'x', body: 'y' }), reason, 45);
    const admission = await fetch(`${stack.base}/api/public/admission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
    });
    expectFenced({ status: admission.status, headers: admission.headers, body: await admission.json() }, reason, 45);

    const client = await mcpClient(agent.secret);
    try {
      const tool = (await client.callTool({
        name: 'create_problem',
        arguments: { idempotency_key: newKey(), ...problemBody({ title: 'Tool write while fenced' }) },
      })) as CallToolResult & { structuredContent?: Record<string, unknown> };
      expect(tool.isError).toBe(true);
      expect(errorOf(tool.structuredContent)).toMatchObject({
        code: 'temporarily_unavailable',
        reason: 'serving_fenced',
        retry_after: 45,
      });
      const found = (await client.callTool({
        name: 'search',
        arguments: { q: 'Fence fixture problem' },
      })) as CallToolResult;
      expect(found.isError).toBeFalsy();
    } finally {
      await client.close();
    }

    expect(await commitQueueSize()).toBe(queuedBefore);
    expect(await countProblemsTitled('Written while fenced')).toBe(0);
  });

  it('keeps reads, search, the feed, the inbox and the projections answering 200, and /api/v1 reports it', async () => {
    await raise('Failover to the standby', 20);
    const index = await (await fetch(`${stack.base}/api/v1`)).json();
    expect(index.serving).toMatchObject({
      writes: 'fenced',
      source: 'operator',
      reason: 'Failover to the standby',
      retry_after_seconds: 20,
    });
    expect(index.serving.since).toEqual(expect.any(String));
    await eventually(() => fetch(`${stack.base}/problems/${problemId}.json`).then((r) => r.status === 200));
    for (const path of [
      `/problems/${problemId}`,
      `/problems/${problemId}.json`,
      `/problems/${problemId}.md`,
      `/api/v1/problems/${problemId}`,
      '/api/problems',
      '/api/v1/search?q=Fence+fixture+problem',
      '/api/search?q=ENOSPC',
      '/api/v1/changes',
      '/search',
      '/',
    ]) {
      expect((await fetch(stack.base + path)).status, path).toBe(200);
    }
    const inbox = await fetch(`${stack.base}/api/inbox`, { headers: { authorization: `Bearer ${agent.secret}` } });
    expect(inbox.status).toBe(200);
    const whoami = await fetch(`${stack.base}/api/whoami`, { headers: { authorization: `Bearer ${agent.secret}` } });
    expect(whoami.status).toBe(200);
    const found = await (await fetch(`${stack.base}/api/v1/search?q=Fence+fixture+problem`)).json();
    expect(found.items.map((item: { id: string }) => item.id)).toContain(problemId);
  });

  it('puts a banner on pages rendered while it stands, and renders them again without it once lowered', {
    timeout: 120_000,
  }, async () => {
    const banner = 'Writes are paused</strong> by the operator: Planned maintenance window.';
    await raise('Planned maintenance window.', 30);
    // A page the API renders on demand (not the default view) shows it at once.
    const onDemand = await (await fetch(`${stack.base}/problems/${problemId}?limit=1`)).text();
    expect(onDemand).toContain(banner);
    // The worker's render of the projection file (a targeted rebuild) shows it too; JSON and Markdown carry no banner.
    const file = (name: string) => path.join(stack.config.PROJECTIONS_DIR, 'problems', name);
    const html = () => readFile(file(`${problemId}.html`), 'utf8').catch(() => '');
    // The worker may hold the fence state for FENCE_MAX_AGE_MS; a rebuild asked for sooner can still render
    // with the state from before the fence (renders in-process start within milliseconds).
    await new Promise((resolve) => setTimeout(resolve, FENCE_MAX_AGE_MS + 200));
    const rebuild = await fetch(`${stack.base}/api/ops/rebuild`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ type: 'problem', id: problemId }),
    });
    expect(rebuild.status).toBe(202);
    // The worker acts on a fence state up to a second old, so its banner may still name the fence before this one.
    await eventually(async () => (await html()).includes('Writes are paused</strong> by the operator: '), 30_000);
    const others = await eventually(
      () =>
        Promise.all([`${problemId}.json`, `${problemId}.md`].map((name) => readFile(file(name), 'utf8'))).catch(
          () => null,
        ),
      30_000,
    );
    for (const text of others) expect(text).not.toContain('Writes are paused');

    await lower();
    // The worker's sweep renders the page again once the fence is down.
    await eventually(async () => {
      const page = await html();
      return page.includes('Fence fixture problem') && !page.includes('Writes are paused');
    }, 30_000);
    expect(await (await fetch(`${stack.base}/problems/${problemId}?limit=1`)).text()).not.toContain(
      'Writes are paused',
    );
    // Every page noted under the fence (this record's and its author's) is rendered again, then forgotten.
    await eventually(
      async () => Number((await stack.pool.query('SELECT count(*) FROM fenced_renders')).rows[0].count) === 0,
      30_000,
    );
  });

  it('lowered, the retry with the same Idempotency-Key commits exactly once', async () => {
    await raise('Short maintenance');
    const key = newKey();
    const body = uniqueProblem('Retried after the fence');
    expect((await send(stack.base, agent, 'POST', '/api/problems', body, { key })).status).toBe(503);
    expect((await send(stack.base, agent, 'POST', '/api/problems', body, { key })).status).toBe(503);
    await lower();
    const first = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
    expect(first.status).toBe(201);
    const again = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.resource.id).toBe(first.body.resource.id);
    expect(await countProblemsTitled('Retried after the fence')).toBe(1);
    expect((await (await fetch(`${stack.base}/api/v1`)).json()).serving).toEqual({
      writes: 'open',
      source: null,
      reason: null,
      since: null,
      retry_after_seconds: null,
    });
  });

  it('holds a write queued before it: the write stays queued while it stands and commits once after', async () => {
    await stack.stopWorker();
    const key = newKey();
    const body = uniqueProblem('Queued across the fence');
    try {
      // No worker: the write is queued and not committed in time (COMMIT_TIMEOUT_MS is 2 s here).
      const pending = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
      expect(errorOf(pending.body).reason).toBe('commit_pending');
      await raise('Holding writes for a restore test', 10);
      const worker = await stack.startWorker();
      expect(worker).toBeTruthy();
      // The worker takes the job, sees the fence and puts it back, delayed, without spending an attempt.
      const delayed = await eventually(async () => {
        const commit = (await statusOf()).queues.commit as Record<string, number>;
        return commit.delayed === 1 && commit;
      });
      expect(delayed.failed).toBe(0);
      expect(await countProblemsTitled('Queued across the fence')).toBe(0);
      expectFenced(
        await send(stack.base, agent, 'POST', '/api/problems', body, { key }),
        'Holding writes for a restore test',
        10,
      );
      await lower();
      await eventually(async () => (await countProblemsTitled('Queued across the fence')) === 1);
      const retry = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
      expect(retry.status).toBe(200);
      expect(retry.body.replayed).toBe(true);
      expect(await countProblemsTitled('Queued across the fence')).toBe(1);
    } finally {
      if (!stack.worker) await stack.startWorker();
    }
  });

  it('is refused to callers without the operator token, and checks its command', async () => {
    const anonymous = await fetch(`${stack.base}/api/ops/fence`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.secret}` },
      body: JSON.stringify({ state: 'on', reason: 'not an operator' }),
    });
    expect(anonymous.status).toBe(401);
    const noReason = await fenceCommand({ state: 'on' });
    expect(errorOf(await noReason.json())).toMatchObject({ code: 'invalid_arguments', field: 'reason' });
    expect((await fenceCommand({ state: 'on', reason: 'x', retry_after: 0 })).status).toBe(400);
    expect((await fenceCommand({ state: 'sideways' })).status).toBe(400);
    expect((await (await fetch(`${stack.base}/api/v1`)).json()).serving.writes).toBe('open');
  });
});

describe('npm run ops -- fence', () => {
  const env = () => ({
    ...process.env,
    DATABASE_URL: stack.config.DATABASE_URL,
    REDIS_URL: stack.config.REDIS_URL,
    QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
    PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
  });
  const ops = (...args: string[]) => run(process.execPath, ['cli/ops.ts', ...args], { env: env() });
  // Each run starts a process; on a loaded machine that alone takes seconds.
  const CLI_TIMEOUT = 120_000;

  it(
    'raises the fence for every process within a second, status says who, when and why, and fence off lowers it',
    async () => {
      const { stdout } = await ops(
        'fence',
        'on',
        '--reason',
        'Upgrading PostgreSQL to 17',
        '--retry-after',
        '120',
        '--by',
        'alice',
      );
      const raised = JSON.parse(stdout);
      expect(raised.status).toMatchObject({
        writes: 'fenced',
        source: 'operator',
        reason: 'Upgrading PostgreSQL to 17',
        retry_after_seconds: 120,
      });
      // The command returns once every process acts on it: the API refuses at once.
      expect(Date.parse(raised.effective_by)).toBeLessThanOrEqual(Date.now());
      expectFenced(
        await send(stack.base, agent, 'POST', '/api/problems', problemBody()),
        'Upgrading PostgreSQL to 17',
        120,
      );

      const status = JSON.parse((await ops('status')).stdout);
      expect(status.fence).toMatchObject({ writes: 'fenced', reason: 'Upgrading PostgreSQL to 17' });
      expect(status.fence.operator).toMatchObject({
        fenced: true,
        raised_by: 'alice',
        raised_at: expect.any(String),
        reason: 'Upgrading PostgreSQL to 17',
      });

      const lowered = JSON.parse((await ops('fence', 'off', '--by', 'bob')).stdout);
      expect(lowered.status).toMatchObject({ writes: 'open' });
      expect(lowered.status.operator).toMatchObject({
        fenced: false,
        raised_by: 'alice',
        lowered_by: 'bob',
        lowered_at: expect.any(String),
      });
      expect(
        (await send(stack.base, agent, 'POST', '/api/problems', uniqueProblem('After the CLI lowered it'))).status,
      ).toBe(201);
    },
    CLI_TIMEOUT,
  );

  it(
    'takes the raiser from the login when no --by is given',
    async () => {
      const raised = JSON.parse((await ops('fence', 'on', '--reason', 'who am I')).stdout);
      expect(raised.status.operator.raised_by).toMatch(/@.+, ops CLI$/);
      await ops('fence', 'off');
    },
    CLI_TIMEOUT,
  );

  it(
    'exits 2 with an error and no stack trace when the reason or the state is missing or wrong',
    async () => {
      const cases = [
        ['fence', 'on'],
        ['fence'],
        ['fence', 'sideways'],
        ['fence', 'on', '--reason', 'x', '--retry-after', 'soon'],
      ];
      const failures = await Promise.all(cases.map((args) => ops(...args).catch((e) => e)));
      cases.forEach((args, i) => {
        expect(failures[i].code, args.join(' ')).toBe(2);
        expect(failures[i].stderr, args.join(' ')).toContain('npm run ops -- fence');
        expect(failures[i].stderr).not.toMatch(/\n\s+at /);
      });
      expect((await (await fetch(`${stack.base}/api/v1`)).json()).serving.writes).toBe('open');
    },
    CLI_TIMEOUT,
  );
});

describe('a read-only database', () => {
  let readOnly: Stack;
  let writer: Agent;
  const setReadOnly = async (on: boolean) => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      const name = new URL(readOnly.config.DATABASE_URL).pathname.slice(1);
      await admin.query(
        on
          ? `ALTER DATABASE ${name} SET default_transaction_read_only = on`
          : `ALTER DATABASE ${name} RESET default_transaction_read_only`,
      );
    } finally {
      await admin.end();
    }
  };
  beforeAll(async () => {
    readOnly = await startStack({ COMMIT_TIMEOUT_MS: '3000', ADMISSION_RATE_LIMIT: '1000' }, { captureLogs: true });
    writer = await admit(readOnly.base);
  });
  afterAll(() => readOnly.close());

  it('fences writes by itself with 503, never 500, keeps reads up, and lifts the fence once writes are safe again', async () => {
    const before = await send(readOnly.base, writer, 'POST', '/api/problems', uniqueProblem('Before read-only'));
    expect(before.status).toBe(201);
    await setReadOnly(true);
    const index = await eventually(async () => {
      const answer = await (await fetch(`${readOnly.base}/api/v1`)).json();
      return answer.serving.writes === 'fenced' && answer;
    });
    expect(index.serving).toMatchObject({ source: 'database', reason: expect.stringContaining('read-only') });
    const key = newKey();
    const body = uniqueProblem('During read-only');
    const refused = await send(readOnly.base, writer, 'POST', '/api/problems', body, { key });
    expect(errorOf(refused.body)).toMatchObject({ code: 'temporarily_unavailable', reason: 'serving_fenced' });
    expect(errorOf(refused.body).message).toContain('read-only');
    expect(refused.headers.get('retry-after')).toBe(String(readOnly.config.RETRY_AFTER_SECONDS));
    const admission = await fetch(`${readOnly.base}/api/public/admission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
    });
    expect(admission.status).toBe(503);
    expect(errorOf(await admission.json()).reason).toBe('serving_fenced');
    const id = before.body.resource.id;
    const paths = [
      `/api/v1/problems/${id}`,
      '/api/problems',
      '/api/v1/search?q=Before+read-only',
      '/api/v1/changes',
      '/api/inbox',
    ];
    for (const path of paths) {
      const res = await fetch(readOnly.base + path, { headers: { authorization: `Bearer ${writer.secret}` } });
      expect(res.status, path).toBe(200);
    }
    expect(
      Number(
        (await readOnly.pool.query("SELECT count(*) FROM problem_revisions WHERE title = 'During read-only'")).rows[0]
          .count,
      ),
    ).toBe(0);
    // Leave the service's pool holding only sessions opened now, which start read-only and stay
    // so: check out every session the pool may hold, drop the older, writable ones and all but
    // three of the new ones, so the writes below surely meet a few stale sessions.
    const held = await Promise.all(Array.from({ length: 20 }, () => readOnly.pool.connect()));
    let kept = 0;
    for (const client of held) {
      const { rows } = await client.query('SHOW transaction_read_only');
      const keep = rows[0].transaction_read_only === 'on' && kept++ < 3;
      client.release(keep ? undefined : new Error('not needed: drop it'));
    }
    expect(kept).toBeGreaterThan(0);
    await setReadOnly(false);
    // Sessions opened while the database was read-only stay so; each is dropped on its first
    // refused write, which is answered 503 serving_fenced (never 500) and retried.
    const admitted = await eventually(async () => {
      const res = await fetch(`${readOnly.base}/api/public/admission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
      });
      expect(res.status).not.toBe(500);
      return res.status === 201;
    }, 60_000);
    expect(admitted).toBe(true);
    const committed = await eventually(async () => {
      const res = await send(readOnly.base, writer, 'POST', '/api/problems', body, { key });
      expect(res.status).not.toBe(500);
      return (res.status === 201 || res.status === 200) && res;
    }, 60_000);
    expect(committed.body.resource.type).toBe('problem');
    expect((await (await fetch(`${readOnly.base}/api/v1`)).json()).serving.writes).toBe('open');
    expect(
      Number(
        (await readOnly.pool.query("SELECT count(*) FROM problem_revisions WHERE title = 'During read-only'")).rows[0]
          .count,
      ),
    ).toBe(1);
    expect(readOnly.logs.filter((line) => /unhandled error|"level":50/.test(line))).toEqual([]);
    // The stale sessions were met (and answered 503), not dodged.
    expect(
      readOnly.logs.filter((line) => line.includes('write refused by a read-only database')).length,
    ).toBeGreaterThan(0);
  }, 90_000);
});
