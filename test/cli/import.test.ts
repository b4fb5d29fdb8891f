/**
 * `npm run ops -- import <file.jsonl>`: an existing knowledge base brought in
 * through the write rules, in batches, once however often it is run. Against
 * the real CLI process, PostgreSQL and Redis.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, problemBody, send } from '../helpers/client.ts';
import { leaks, secretCases } from '../helpers/secret-corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const CLI_TIMEOUT = 120_000;
const SECRET = secretCases().find((c) => c.shape.startsWith('GitHub classic personal access token in a log line'))!;

let stack: Stack;
let scratch: string;

beforeAll(async () => {
  stack = await startStack({ WRITE_RATE_LIMIT: '100000' });
  scratch = await mkdtemp(path.join(tmpdir(), 'ak-import-test-'));
}, 120_000);
afterAll(async () => {
  await stack?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  DATABASE_URL: stack.config.DATABASE_URL,
  REDIS_URL: stack.config.REDIS_URL,
  QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
  PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
  LOG_LEVEL: 'silent',
});

let files = 0;
async function fileOf(lines: unknown[]): Promise<string> {
  const file = path.join(scratch, `import-${++files}.jsonl`);
  await writeFile(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

async function importFile(file: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['cli/ops.ts', 'import', file, ...args], {
    env: env(),
    timeout: CLI_TIMEOUT,
  });
  return JSON.parse(stdout);
}

interface Counts {
  problems: number;
  solutions: number;
  discussions: number;
  changes: number;
  operations: number;
}

async function counts(): Promise<Counts> {
  const r = await stack.pool.query(
    `SELECT (SELECT count(*) FROM problems)::int AS problems, (SELECT count(*) FROM solutions)::int AS solutions,
            (SELECT count(*) FROM discussions)::int AS discussions,
            (SELECT count(*) FROM changes WHERE kind <> 'identity.admitted')::int AS changes,
            (SELECT count(*) FROM operations)::int AS operations`,
  );
  return r.rows[0];
}

const knowledgeBase = (prefix: string) => [
  {
    operation: 'create_problem',
    key: `${prefix}-p1`,
    created_at: '2024-03-01T10:00:00Z',
    body: problemBody({ title: `${prefix}: vite dev server exits with ENOSPC`, product: `${prefix}-vite` }),
  },
  {
    operation: 'create_problem',
    key: `${prefix}-p2`,
    body: {
      title: `${prefix}: psql refuses the connection`,
      body: 'FATAL: role "app" does not exist',
      product: 'postgresql',
      error_literal: `FATAL: role "${prefix}" does not exist`,
      tags: ['postgres', 'auth'],
    },
  },
  {
    operation: 'create_solution',
    key: `${prefix}-s1`,
    body: { problem_id: `${prefix}-p1`, body: 'Raise fs.inotify.max_user_watches with sysctl.' },
  },
  { operation: 'create_discussion', key: `${prefix}-d1`, body: { title: `${prefix}: pin Node?`, body: 'Which one?' } },
];

describe('npm run ops -- import', () => {
  it(
    'creates each record once: a second run of the same file creates nothing and reports every line as imported',
    async () => {
      const before = await counts();
      const file = await fileOf(knowledgeBase('twice'));
      const first = await importFile(file);
      expect(first.created).toEqual({ problem: 2, solution: 1, discussion: 1 });
      expect(first.already_imported).toBe(0);
      const afterFirst = await counts();
      expect(afterFirst.problems - before.problems).toBe(2);
      expect(afterFirst.solutions - before.solutions).toBe(1);
      expect(afterFirst.discussions - before.discussions).toBe(1);
      // One change per record, as a write logs: the feed, the sitemap and the render worker read them.
      expect(afterFirst.changes - before.changes).toBe(4);

      const second = await importFile(file);
      expect(second.created).toEqual({ problem: 0, solution: 0, discussion: 0 });
      expect(second.already_imported).toBe(4);
      expect(await counts()).toEqual(afterFirst);

      // The solution hangs off the problem of the line its problem_id names; the source's time is kept.
      const r = await stack.pool.query(
        `SELECT p.id, p.created_at, (SELECT count(*) FROM solutions s WHERE s.problem_id = p.id)::int AS solutions
           FROM problems p JOIN problem_revisions r ON r.problem_id = p.id WHERE r.title = 'twice: vite dev server exits with ENOSPC'`,
      );
      expect(r.rows).toHaveLength(1);
      expect(r.rows[0].solutions).toBe(1);
      expect(r.rows[0].created_at.toISOString()).toBe('2024-03-01T10:00:00.000Z');
      // Found by search like a written record: its search document was built after the load.
      const docs = await stack.pool.query('SELECT count(*)::int AS n FROM search_documents WHERE id = $1', [
        r.rows[0].id,
      ]);
      expect(docs.rows[0].n).toBe(1);
    },
    CLI_TIMEOUT,
  );

  it(
    'makes the author an identity through admission, once, however many imports name it',
    async () => {
      const file = await fileOf([
        { operation: 'create_discussion', key: 'admitted-1', body: { title: 'Written by a new author', body: 'a' } },
      ]);
      await importFile(file, '--author', 'admitted-author');
      await importFile(
        await fileOf([
          { operation: 'create_discussion', key: 'admitted-2', body: { title: 'The same author again', body: 'b' } },
        ]),
        '--author',
        'admitted-author',
      );
      const r = await stack.pool.query(
        `SELECT i.id, (SELECT count(*) FROM identity_admissions a WHERE a.identity_id = i.id)::int AS admissions,
                (SELECT count(*) FROM changes c WHERE c.kind = 'identity.admitted' AND c.resource_id = i.id)::int AS admitted
           FROM identities i WHERE i.handle = 'admitted-author'`,
      );
      expect(r.rows).toEqual([{ id: expect.stringMatching(/^agt_/), admissions: 1, admitted: 1 }]);
    },
    CLI_TIMEOUT,
  );

  it(
    'resumes: after part of a file was imported, the whole file creates only the rest',
    async () => {
      const lines = knowledgeBase('resume');
      const before = await counts();
      const part = await importFile(await fileOf(lines.slice(0, 2)));
      expect(part.created).toEqual({ problem: 2, solution: 0, discussion: 0 });
      const whole = await importFile(await fileOf(lines));
      expect(whole.created).toEqual({ problem: 0, solution: 1, discussion: 1 });
      expect(whole.already_imported).toBe(2);
      const after = await counts();
      expect(after.problems - before.problems).toBe(2);
      expect(after.solutions - before.solutions).toBe(1);
    },
    CLI_TIMEOUT,
  );

  it(
    'stores a secret in an imported body redacted exactly as an API write of the same body stores it',
    async () => {
      const body = problemBody({ title: 'Push rejected after pasting the token', body: SECRET.text });
      const agent = await admit(stack.base);
      const written = await send(stack.base, agent, 'POST', '/api/problems', { ...body, product: 'git-api' });
      expect(written.status).toBe(201);
      expect(written.body.redacted).toEqual(['body']);
      const summary = await importFile(
        await fileOf([{ operation: 'create_problem', key: 'secret-1', body: { ...body, product: 'git-import' } }]),
      );
      expect(summary.redacted).toBe(1);
      const stored = await stack.pool.query(
        `SELECT product, body FROM problem_revisions WHERE product IN ('git-api', 'git-import') ORDER BY product`,
      );
      expect(stored.rows.map((row) => row.product)).toEqual(['git-api', 'git-import']);
      const [api, imported] = stored.rows.map((row) => row.body as string);
      expect(leaks(SECRET, imported!)).toBeNull();
      expect(imported).toBe(api);
      const receipt = await stack.pool.query(
        `SELECT receipt FROM operations WHERE receipt->>'operation' = 'create_problem' AND receipt->'resource'->>'id' =
           (SELECT problem_id FROM problem_revisions WHERE product = 'git-import')`,
      );
      expect(receipt.rows[0].receipt.redacted).toEqual(['body']);
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses a file with bad lines, naming each line and what is wrong, and writes nothing of it',
    async () => {
      const before = await counts();
      const file = await fileOf([
        { operation: 'create_problem', key: 'bad-1', body: problemBody({ product: 'bad-file' }) },
        { operation: 'create_problem', key: 'bad-2', body: problemBody({ title: 'x', product: 'bad-file' }) },
        '{"operation": "create_problem", "key": ',
        { operation: 'delete_problem', key: 'bad-4', body: {} },
        { operation: 'create_solution', key: 'bad-5', body: { problem_id: 'no-such-key', body: 'Restart it.' } },
        { operation: 'create_problem', key: 'bad-1', body: problemBody({ product: 'bad-file-2' }) },
      ]);
      const failure = await importFile(file).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      const stderr = failure!.stderr;
      expect(stderr).toContain('5 of 6 lines cannot be imported; nothing was imported');
      expect(stderr).toMatch(/line 2: body\.title: .*5/);
      expect(stderr).toMatch(/line 3: not JSON/);
      expect(stderr).toMatch(/line 4: operation: /);
      expect(stderr).toMatch(
        /line 5: body\.problem_id: "no-such-key" is neither a problem's id nor the key of a problem/,
      );
      expect(stderr).toMatch(/line 6: key "bad-1" is used by an earlier line/);
      expect(stderr).not.toMatch(/line 1:/);
      expect(await counts()).toEqual(before);
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses a NUL character or a __proto__ key in a line past the first batch, and writes nothing of the file',
    async () => {
      const before = await counts();
      // 300 good lines first: more than one load batch, which the load would have committed before the bad one.
      const good = Array.from({ length: 300 }, (_, i) => ({
        operation: 'create_discussion',
        key: `nul-file-${i}`,
        body: { title: `Discussion ${i} of a file with a NUL`, body: 'a' },
      }));
      const file = await fileOf([
        ...good,
        { operation: 'create_problem', key: 'nul-1', body: problemBody({ title: 'ENOSPC\u0000 watcher' }) },
        '{"operation":"create_discussion","key":"nul-2","body":{"title":"A discussion with a reserved key","body":"b","__proto__":{"x":1}}}',
        { operation: 'create_discussion', key: 'nul-3\u0000', body: { title: 'Keyed', body: 'c' } },
        { operation: 'create_discussion', key: 'ctl-1', body: { title: '\u001b[31mRed\u001b[0m build', body: 'd' } },
        { operation: 'create_discussion', key: 'sur-1', body: { title: 'Half an emoji', body: 'e \ud83d' } },
      ]);
      const failure = await importFile(file).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      const stderr = failure!.stderr;
      expect(stderr).toContain('5 of 305 lines cannot be imported; nothing was imported');
      expect(stderr).toContain('line 301: body.title: holds a NUL character (U+0000), which cannot be stored');
      expect(stderr).toContain('line 302: body.__proto__: the key __proto__ is reserved');
      expect(stderr).toContain('line 303: key: holds a NUL character (U+0000), which cannot be stored');
      expect(stderr).toContain('line 304: body.title: holds a control character other than tab');
      expect(stderr).toContain('line 305: body.body: holds a lone UTF-16 surrogate');
      expect(await counts()).toEqual(before);
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses a file that is not UTF-8, and writes nothing of it',
    async () => {
      const before = await counts();
      const good = await fileOf([
        { operation: 'create_discussion', key: 'latin-1', body: { title: 'Caf', body: 'a' } },
      ]);
      const bytes = await readFile(good);
      // "Café" in Latin-1: the byte 0xE9 alone is no UTF-8.
      const at = bytes.indexOf('Caf') + 3;
      await writeFile(good, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9]), bytes.subarray(at)]));
      const failure = await importFile(good).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure!.stderr).toMatch(/is not UTF-8 text \(invalid bytes at or after byte 0\); nothing was imported/);
      expect(await counts()).toEqual(before);
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses a key imported before with different content',
    async () => {
      await importFile(
        await fileOf([{ operation: 'create_discussion', key: 'changed', body: { title: 'First', body: 'a' } }]),
      );
      const before = await counts();
      const failure = await importFile(
        await fileOf([{ operation: 'create_discussion', key: 'changed', body: { title: 'Second', body: 'b' } }]),
      ).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure!.stderr).toContain('line 1: key "changed" was imported before with different content');
      expect(await counts()).toEqual(before);
    },
    CLI_TIMEOUT,
  );

  it(
    'imports nothing while the serving fence stands, and all of it once the fence is lowered',
    async () => {
      const file = await fileOf([
        { operation: 'create_discussion', key: 'fenced-1', body: { title: 'Held by the fence', body: 'a' } },
      ]);
      const ops = (...args: string[]) =>
        run(process.execPath, ['cli/ops.ts', ...args], { env: env(), timeout: CLI_TIMEOUT });
      await ops('fence', 'on', '--reason', 'restoring a backup');
      const before = await counts();
      try {
        const failure = await importFile(file).then(
          () => null,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failure?.code).toBe(1);
        expect(failure!.stderr).toContain('writes are fenced (restoring a backup)');
        expect(await counts()).toEqual(before);
      } finally {
        await ops('fence', 'off');
      }
      const summary = await importFile(file);
      expect(summary.created).toEqual({ problem: 0, solution: 0, discussion: 1 });
    },
    CLI_TIMEOUT,
  );
});
