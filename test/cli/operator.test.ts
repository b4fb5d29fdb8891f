import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { createQueue, queueBackendOf } from '../../infra/queues.ts';
import { createProgress } from '../../cli/progress.ts';
import { readOperatorStatus } from '../../infra/operator-status.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { admit, errorOf, eventually, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
let problemId: string;

beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN) });
  const agent = await admit(stack.base);
  problemId = (await send(stack.base, agent, 'POST', '/api/problems', problemBody())).body.resource.id;
  await eventually(() =>
    readFile(file(`problems/${problemId}.json`)).then(
      () => true,
      () => false,
    ),
  );
});
afterAll(() => stack.close());

const file = (relative: string) => path.join(stack.config.PROJECTIONS_DIR, relative);
const operator = (method: string, p: string, body?: unknown, token: string | null = TOKEN) =>
  fetch(stack.base + p, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('operator endpoints', () => {
  it('refuse callers without the operator token, and agent credentials too', async () => {
    expect((await operator('POST', '/api/ops/rebuild', {}, null)).status).toBe(401);
    const wrong = await operator('POST', '/api/ops/rebuild', {}, 'not-the-token');
    expect(errorOf(await wrong.json())).toMatchObject({
      code: 'authentication_required',
      reason: 'operator_token_required',
    });
    const agent = await admit(stack.base);
    expect((await operator('GET', '/api/ops/status', undefined, agent.secret)).status).toBe(401);
  });

  it('queue a full rebuild that restores a deleted projection and removes an orphan', async () => {
    await rm(file(`problems/${problemId}.html`));
    await writeFile(file('problems/prb_0000000000000000000000000z.json'), '{}');
    const res = await operator('POST', '/api/ops/rebuild', {});
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ status: 'queued', status_url: '/api/ops/status' });
    await eventually(() =>
      readFile(file(`problems/${problemId}.html`)).then(
        () => true,
        () => false,
      ),
    );
    await eventually(() =>
      readFile(file('problems/prb_0000000000000000000000000z.json')).then(
        () => false,
        () => true,
      ),
    );
  });

  it('queue a targeted rebuild of one record', async () => {
    await rm(file(`problems/${problemId}.md`));
    expect((await operator('POST', '/api/ops/rebuild', { type: 'problem', id: problemId })).status).toBe(202);
    await eventually(() =>
      readFile(file(`problems/${problemId}.md`)).then(
        () => true,
        () => false,
      ),
    );
    // The id's prefix names its type, so the id alone is enough.
    await rm(file(`problems/${problemId}.json`));
    expect((await operator('POST', '/api/ops/rebuild', { id: problemId })).status).toBe(202);
    await eventually(() =>
      readFile(file(`problems/${problemId}.json`)).then(
        () => true,
        () => false,
      ),
    );
    const bad = await operator('POST', '/api/ops/rebuild', { id: 'xyz_0000000000000000000000000z' });
    expect(errorOf(await bad.json())).toMatchObject({ field: 'type' });
    expect((await operator('POST', '/api/ops/rebuild', { type: 'planet' })).status).toBe(400);
  });

  it("report every queue's depths, the render lag and the search-index lag", async () => {
    const status = await (await operator('GET', '/api/ops/status')).json();
    expect(status.queues.commit).toMatchObject({ waiting: expect.any(Number), failed: expect.any(Number) });
    expect(Object.keys(status.queues).sort()).toEqual(['commit', 'render', 'search-compact', 'search-index']);
    expect(status.search_index).toEqual({
      pending_runs: expect.any(Number),
      lag_seconds: expect.any(Number),
      compaction: { pending_runs: expect.any(Number), lag_seconds: expect.any(Number) },
    });
    expect(status.search_champions).toEqual({
      built: expect.any(Boolean),
      unfolded_documents: expect.any(Number),
      lag_seconds: expect.any(Number),
    });
    expect(status.search_documents).toEqual({ pending_changes: expect.any(Number), lag_seconds: expect.any(Number) });
    expect(status.render).toMatchObject({
      last_committed_cursor: expect.stringMatching(/^\d+$/),
      unrendered_changes: expect.any(Number),
    });
  });

  it('are disabled when no operator token is configured', async () => {
    const plain = await startStack({}, { worker: false });
    try {
      const res = await fetch(`${plain.base}/api/ops/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(403);
      expect(errorOf(await res.json()).reason).toBe('operator_disabled');
    } finally {
      await plain.close();
    }
  });
});

describe('npm run ops', () => {
  // Each run starts a process; on a loaded machine that alone takes seconds.
  const CLI_TIMEOUT = 120_000;
  const env = () => ({
    ...process.env,
    DATABASE_URL: stack.config.DATABASE_URL,
    REDIS_URL: stack.config.REDIS_URL,
    QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
    PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
  });

  it(
    'rebuilds with plain progress lines when not on a terminal, rewriting nothing that is current',
    async () => {
      const { stdout, stderr } = await run(process.execPath, ['cli/ops.ts', 'rebuild'], { env: env() });
      expect(stderr).toMatch(/^rebuild: 0\/\d+ 0%/m);
      expect(stderr).toMatch(/rebuild: (\d+)\/\1 100% elapsed \d+s eta 0s/);
      expect(stdout).toMatch(/rebuild done in [\d.]+s: 0 written, \d+ unchanged, 0 removed/);
    },
    CLI_TIMEOUT,
  );

  it(
    'prints the status as JSON',
    async () => {
      const { stdout } = await run(process.execPath, ['cli/ops.ts', 'status'], { env: env() });
      expect(JSON.parse(stdout)).toMatchObject({
        queues: {
          commit: expect.any(Object),
          render: expect.any(Object),
          'search-index': expect.any(Object),
          'search-compact': expect.any(Object),
        },
        search_index: {
          pending_runs: expect.any(Number),
          lag_seconds: expect.any(Number),
          compaction: { pending_runs: expect.any(Number) },
        },
      });
    },
    CLI_TIMEOUT,
  );

  it(
    'prints help for the tool and for every command, with exit code 0 and no stack trace',
    async () => {
      const cases = [
        ['--help'],
        ['rebuild', '--help'],
        ['status', '--help'],
        ['help', 'rebuild'],
        ['fence', 'on', '--help'],
      ];
      // One process each, started together: on a loaded machine each start alone takes seconds.
      const answers = await Promise.all(
        cases.map((args) => run(process.execPath, ['cli/ops.ts', ...args], { env: env() })),
      );
      for (const { stdout, stderr } of answers) {
        expect(stdout).toMatch(/^Usage: npm run ops -- /);
        expect(stderr).toBe('');
      }
      expect(answers[1]!.stdout).toContain('--type <type>');
      expect(answers[4]!.stdout).toContain('--reason <text>');
    },
    CLI_TIMEOUT,
  );

  it(
    'exits 2 with the usage on bad arguments',
    async () => {
      const failed = await run(process.execPath, ['cli/ops.ts', 'rebuild', '--type', 'planet'], { env: env() }).catch(
        (e) => e,
      );
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain('Usage: npm run ops -- rebuild');
      expect(failed.stderr).toContain('Allowed choices are problem, solution, discussion, agent');
      const cases = [['frobnicate'], ['rebuild', '--id', 'prb_x'], ['status', '--verbose']];
      const refusals = await Promise.all(
        cases.map((args) => run(process.execPath, ['cli/ops.ts', ...args], { env: env() }).catch((e) => e)),
      );
      for (const refused of refusals) {
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(/^error: /);
        expect(refused.stderr).not.toMatch(/\n\s+at /);
      }
    },
    CLI_TIMEOUT,
  );

  it(
    'rebuilds one record from its id alone, since the prefix names its type',
    async () => {
      await rm(file(`problems/${problemId}.md`));
      const { stdout } = await run(process.execPath, ['cli/ops.ts', 'rebuild', '--id', problemId], { env: env() });
      expect(stdout).toMatch(/rebuild done in [\d.]+s: [1-9]\d* written/);
      await readFile(file(`problems/${problemId}.md`));
    },
    CLI_TIMEOUT,
  );

  it(
    'says a record that does not exist does not exist, and exits 1',
    async () => {
      const missing = 'prb_0000000000000000000000000z';
      const failed = await run(process.execPath, ['cli/ops.ts', 'rebuild', '--id', missing], { env: env() }).catch(
        (e) => e,
      );
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(`error: no problem has the id ${missing}\n`);
      expect(failed.stdout).not.toContain('written');
    },
    CLI_TIMEOUT,
  );

  it(
    'says in one line, without the password or a stack trace, that the database cannot be reached',
    async () => {
      const password = randomBytes(9).toString('base64url');
      const unreachable = { ...env(), DATABASE_URL: `postgres://postgres:${password}@127.0.0.1:1/nowhere` };
      const failures = await Promise.all(
        [['status'], ['rebuild', '--type', 'problem'], ['refresh-trust']].map((args) =>
          run(process.execPath, ['cli/ops.ts', ...args], { env: unreachable }).catch((e) => e),
        ),
      );
      for (const failed of failures) {
        expect(failed.code).toBe(1);
        const lines = failed.stderr
          .split('\n')
          .filter((line: string) => line.startsWith('error') || /^\s+at /.test(line));
        expect(lines).toEqual([
          expect.stringMatching(
            /^error: cannot use the database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere \(.*ECONNREFUSED/,
          ),
        ]);
        expect(failed.stderr + failed.stdout).not.toContain(password);
      }
    },
    CLI_TIMEOUT,
  );

  it('answer what the OpenAPI document says, for every operator operation', async () => {
    const doc = await (await fetch(`${stack.base}/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(doc, 'openapi');
    const calls: [method: string, path: string, body: unknown, status: number][] = [
      ['GET', '/api/ops/status', undefined, 200],
      ['GET', '/api/ops/fence', undefined, 200],
      ['POST', '/api/ops/fence', { state: 'off' }, 200],
      ['POST', '/api/ops/rebuild', { type: 'agent' }, 202],
    ];
    for (const [method, p, body, status] of calls) {
      const res = await operator(method, p, body);
      expect(res.status, `${method} ${p}`).toBe(status);
      const pointer = `openapi#/paths/${p.replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: pointer });
      expect(validate(await res.json()) ? [] : validate.errors, `${method} ${p}`).toEqual([]);
    }
  });

  it('shows a search-index run that has not finished as index lag', async () => {
    const queue = createQueue(queueBackendOf(stack.config), 'search-index-lag-probe');
    try {
      await queue.add('probe', {}, { delay: 60_000 });
      const status = await readOperatorStatus(stack.pool, [queue], {
        searchIndexQueue: 'search-index-lag-probe',
        retryAfterSeconds: 2,
        now: Date.now() + 5_000,
      });
      expect(status.search_index.pending_runs).toBe(1);
      expect(status.search_index.lag_seconds).toBeGreaterThanOrEqual(5);
      expect(status.search_index.compaction).toEqual({ pending_runs: 0, lag_seconds: 0 });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('shows a change search has not caught up with as search-document lag, and none once caught up', async () => {
    const id = `dsc_lag${randomBytes(6).toString('hex')}`;
    const author = (await stack.pool.query<{ id: string }>('SELECT id FROM identities LIMIT 1')).rows[0]!.id;
    await stack.pool.query(
      `INSERT INTO discussions (id, author_id, title, body, created_at, updated_at) VALUES ($1, $2, 'Lag probe', 'b', now(), now())`,
      [id, author],
    );
    // Held, so no catch-up can take it while the status is read.
    const holder = await stack.pool.connect();
    try {
      await holder.query('BEGIN');
      expect((await holder.query('SELECT 1 FROM search_pending WHERE family = $1 FOR UPDATE', [id])).rowCount).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const status = await readOperatorStatus(stack.pool, [], { retryAfterSeconds: 2 });
      expect(status.search_documents.pending_changes).toBeGreaterThanOrEqual(1);
      expect(status.search_documents.lag_seconds).toBeGreaterThanOrEqual(1);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    await searchDocumentsCaughtUp(stack.pool);
    const caughtUp = await readOperatorStatus(stack.pool, [], { retryAfterSeconds: 2 });
    expect(caughtUp.search_documents).toEqual({ pending_changes: 0, lag_seconds: 0 });
  });

  it('shows a compaction that has not finished as compaction lag, apart from the index runs', async () => {
    const queue = createQueue(queueBackendOf(stack.config), 'search-compact-lag-probe');
    try {
      await queue.add('probe', {}, { delay: 60_000 });
      const status = await readOperatorStatus(stack.pool, [queue], {
        searchCompactQueue: 'search-compact-lag-probe',
        retryAfterSeconds: 2,
        now: Date.now() + 90_000,
      });
      expect(status.search_index.compaction.pending_runs).toBe(1);
      expect(status.search_index.compaction.lag_seconds).toBeGreaterThanOrEqual(90);
      expect(status.search_index).toMatchObject({ pending_runs: 0, lag_seconds: 0 });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});

describe('progress', () => {
  it('draws a bar with an ETA on a terminal', () => {
    const out: string[] = [];
    let t = 0;
    const report = createProgress('rebuild', { isTTY: true, columns: 100, write: (s) => out.push(s) }, () => t);
    report({ done: 0, total: 4 });
    t = 2000;
    report({ done: 1, total: 4 });
    expect(out[1]).toMatch(/^\rrebuild \[#+\.+\] 1\/4 25% elapsed 2s eta 6s$/);
    t = 8000;
    report({ done: 4, total: 4 });
    expect(out[2]).toMatch(/\] 4\/4 100% elapsed 8s eta 0s\n$/);
  });

  it('writes a plain line per tenth when not on a terminal', () => {
    const out: string[] = [];
    const report = createProgress('rebuild', { isTTY: false, write: (s) => out.push(s) }, () => 0);
    for (let done = 0; done <= 100; done++) report({ done, total: 100 });
    expect(out).toHaveLength(11);
    expect(out.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
  });
});
