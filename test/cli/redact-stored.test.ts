/**
 * Records stored before the scanner knew a shape: the operator command and
 * the migration step scan every revision (old ones too), search document
 * and profile, redact in place, re-render, and print the counts. Against
 * the real CLI process, PostgreSQL, Redis and the projections folder.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REBUILD_JOB, RENDER_QUEUE } from '../../core/queue-contract.ts';
import { owedRebuilds } from '../../db/queries/owed-rebuilds.ts';
import { redisConnectionOptions } from '../../infra/redis.ts';
import { REDACTED_REASON, redactStoredOncePerRules, redactStoredRecords } from '../../cli/redact-stored.ts';
import { admit, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { leaks, secretCases, type SecretCase } from '../helpers/secret-corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const CLI_TIMEOUT = 180_000;
const CASES = secretCases();
/** Shapes of different kinds for the planted rows. */
const pick = (shape: string): SecretCase => CASES.find((c) => c.shape.startsWith(shape))!;
const PLANTED = {
  oldRevision: pick('GitHub classic personal access token in a log line'),
  newRevision: pick('password in a postgresql URL with an @ in the password'),
  environment: pick('assignment DB_PASSWORD='),
  solution: pick('lower-case PEM block'),
  outcome: pick('Docker config auth'),
  discussion: pick('X-Api-Key header'),
  reply: pick('PuTTY private key, version 2'),
  bio: pick('npm access token in a log line'),
};

let stack: Stack;
let agent: Agent;
let other: Agent;
const ids: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack({ WRITE_RATE_LIMIT: '100000' });
  agent = await admit(stack.base);
  other = await admit(stack.base);
  const write = async (who: Agent, method: string, p: string, body: unknown) => {
    const res = await send(stack.base, who, method, p, body);
    if (res.status !== 201) throw new Error(`${p} answered ${res.status}`);
    return res.body.resource.id as string;
  };
  ids.problem = await write(
    agent,
    'POST',
    '/api/problems',
    problemBody({ title: 'Stored before the rules', product: 'legacy' }),
  );
  await write(agent, 'PATCH', `/api/problems/${ids.problem}`, {
    base_revision: 1,
    error_literal: 'Error: placeholder',
  });
  ids.solution = await write(agent, 'POST', '/api/solutions', {
    problem_id: ids.problem,
    body: 'Set the password through the environment.',
  });
  ids.outcome = await write(other, 'POST', `/api/solutions/${ids.solution}/outcomes`, {
    signal: 'worked',
    note: 'placeholder',
  });
  ids.discussion = await write(agent, 'POST', '/api/discussions', { title: 'Where do keys go?', body: 'placeholder' });
  ids.reply = await write(other, 'POST', `/api/discussions/${ids.discussion}/replies`, { body: 'placeholder' });
  await write(other, 'PATCH', '/api/profile', { bio: 'placeholder' });
  await eventually(
    async () => (await fetch(`${stack.base}/discussions/${ids.discussion}.json`)).status === 200,
    30_000,
  );

  // What an older scanner let through, planted as it would have been stored.
  const q = (sql: string, params: unknown[]) => stack.pool.query(sql, params);
  await q('UPDATE problem_revisions SET body = $2 WHERE problem_id = $1 AND revision = 1', [
    ids.problem,
    PLANTED.oldRevision.text,
  ]);
  await q(
    'UPDATE problem_revisions SET error_literal = $2, environment = $3::jsonb WHERE problem_id = $1 AND revision = 2',
    [ids.problem, PLANTED.newRevision.text, JSON.stringify({ os: 'linux', dump: PLANTED.environment.text })],
  );
  await q('UPDATE solution_revisions SET body = $2 WHERE solution_id = $1', [ids.solution, PLANTED.solution.text]);
  await q('UPDATE outcomes SET note = $2 WHERE id = $1', [ids.outcome, PLANTED.outcome.text]);
  await q('UPDATE discussions SET body = $2 WHERE id = $1', [ids.discussion, PLANTED.discussion.text]);
  await q('UPDATE replies SET body = $2 WHERE id = $1', [ids.reply, PLANTED.reply.text]);
  await q('UPDATE identities SET bio = $2 WHERE id = $1', [other.id, PLANTED.bio.text]);
}, 120_000);
afterAll(() => stack?.close());

const env = () => ({
  ...process.env,
  DATABASE_URL: stack.config.DATABASE_URL,
  REDIS_URL: stack.config.REDIS_URL,
  QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
  PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
});

/** The stored and published text: contribution tables, search documents, every projection file. */
async function storedAndPublished(): Promise<string> {
  const parts: string[] = [];
  for (const table of [
    'problem_revisions',
    'solution_revisions',
    'outcomes',
    'discussions',
    'replies',
    'identities',
    'search_documents',
  ]) {
    parts.push(
      (await stack.pool.query(`SELECT coalesce(string_agg(row_to_json(t)::text, E'\\n'), '') AS all FROM ${table} t`))
        .rows[0].all,
    );
  }
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (!/\.(gz|br|zst)$/.test(entry.name)) parts.push(await readFile(full, 'utf8'));
    }
  };
  await walk(stack.config.PROJECTIONS_DIR);
  return parts.join('\n');
}

const leaked = (text: string) =>
  Object.entries(PLANTED)
    .filter(([, c]) => leaks(c, text) !== null)
    .map(([where]) => where);

describe('npm run ops -- redact-secrets', () => {
  it(
    'finds secrets stored before the rules, in every revision, and publishes them no more',
    async () => {
      // As they were: stored, in the search documents, and once rendered, in the projections.
      await run(process.execPath, ['cli/ops.ts', 'rebuild'], { env: env(), timeout: CLI_TIMEOUT });
      expect(leaked(await storedAndPublished())).toEqual(Object.keys(PLANTED));

      const { stdout } = await run(process.execPath, ['cli/ops.ts', 'redact-secrets'], {
        env: env(),
        timeout: CLI_TIMEOUT,
      });
      expect(stdout).toMatch(/problem_revisions: \d+ scanned, 2 redacted/);
      expect(stdout).toMatch(/solution_revisions: \d+ scanned, 1 redacted/);
      expect(stdout).toMatch(/outcomes: \d+ scanned, 1 redacted/);
      expect(stdout).toMatch(/discussions: \d+ scanned, 1 redacted/);
      expect(stdout).toMatch(/replies: \d+ scanned, 1 redacted/);
      expect(stdout).toMatch(/identities: \d+ scanned, 1 redacted/);
      expect(stdout).toMatch(/total: \d+ rows redacted/);
      expect(stdout).toMatch(/rebuild done in [\d.]+s: [1-9]\d* written/);

      expect(leaked(await storedAndPublished())).toEqual([]);
      const old = (
        await stack.pool.query('SELECT body FROM problem_revisions WHERE problem_id = $1 AND revision = 1', [
          ids.problem,
        ])
      ).rows[0].body;
      expect(old).toContain('<redacted:github-token>');
      const page = JSON.parse(
        await readFile(path.join(stack.config.PROJECTIONS_DIR, `problems/${ids.problem}.json`), 'utf8'),
      );
      expect(page.error_literal).toBe('postgresql://app:<redacted:url-password>@db.internal:5432/app');
      expect(page.environment).toEqual({ os: 'linux', dump: 'DB_PASSWORD=<redacted:password>' });
    },
    2 * CLI_TIMEOUT,
  );

  it(
    'changes nothing and re-renders nothing on a second run',
    async () => {
      const { stdout } = await run(process.execPath, ['cli/ops.ts', 'redact-secrets'], {
        env: env(),
        timeout: CLI_TIMEOUT,
      });
      expect(stdout).toMatch(/total: 0 rows redacted/);
      expect(stdout).not.toMatch(/rebuild done/);
    },
    CLI_TIMEOUT,
  );
});

describe('a scan cut short before its rebuild', () => {
  it(
    'leaves the rebuild owed, and the next run pays it although it finds nothing to redact',
    async () => {
      await stack.pool.query('UPDATE replies SET body = $2 WHERE id = $1', [ids.reply, PLANTED.reply.text]);
      await run(process.execPath, ['cli/ops.ts', 'rebuild', '--type', 'discussion'], {
        env: env(),
        timeout: CLI_TIMEOUT,
      });
      // The scan commits its redactions; the process dies before it re-renders anything.
      const counts = await redactStoredRecords(stack.pool);
      expect(counts.replies?.redacted).toBe(1);
      expect(leaked(await storedAndPublished())).toEqual(['reply']);
      expect((await stack.pool.query('SELECT reason FROM owed_rebuilds')).rows).toEqual([{ reason: REDACTED_REASON }]);

      const { stdout } = await run(process.execPath, ['cli/ops.ts', 'redact-secrets'], {
        env: env(),
        timeout: CLI_TIMEOUT,
      });
      expect(stdout).toMatch(/total: 0 rows redacted/);
      expect(stdout).toContain(`a full rebuild is owed (${REDACTED_REASON})`);
      expect(stdout).toMatch(/rebuild done in/);
      expect(leaked(await storedAndPublished())).toEqual([]);
      expect((await stack.pool.query('SELECT reason FROM owed_rebuilds')).rows).toEqual([]);
    },
    3 * CLI_TIMEOUT,
  );

  it('never overwrites a write that landed between its read and its update', async () => {
    await stack.pool.query('UPDATE identities SET bio = $2 WHERE id = $1', [other.id, PLANTED.bio.text]);
    const newer = 'A newer bio, written while the scan ran.';
    // The scan's read of identities answers, then the profile is written, then the scan updates.
    const racing = new Proxy(stack.pool, {
      get(target, name, receiver) {
        if (name !== 'query') return Reflect.get(target, name, receiver);
        return async (...args: Parameters<typeof target.query>) => {
          const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
          if (typeof args[0] === 'string' && /FROM identities/.test(args[0]))
            await target.query('UPDATE identities SET bio = $2 WHERE id = $1', [other.id, newer]);
          return result;
        };
      },
    });
    const counts = await redactStoredRecords(racing);
    expect(counts.identities?.redacted).toBe(0);
    expect((await stack.pool.query('SELECT bio FROM identities WHERE id = $1', [other.id])).rows[0].bio).toBe(newer);
  });
});

describe('the migration step', () => {
  it('scans once per version of the rules, and again when that version has not scanned', async () => {
    // The operator command above recorded this version: the step has nothing to do.
    expect(await redactStoredOncePerRules(stack.pool)).toBeNull();
    await stack.pool.query('UPDATE replies SET body = $2 WHERE id = $1', [ids.reply, PLANTED.reply.text]);
    await stack.pool.query('DELETE FROM secret_scans');
    const counts = await redactStoredOncePerRules(stack.pool);
    expect(counts?.replies).toEqual({ scanned: expect.any(Number), redacted: 1 });
    expect((await stack.pool.query('SELECT body FROM replies WHERE id = $1', [ids.reply])).rows[0].body).toContain(
      '<redacted:putty-private-key>',
    );
    expect(await redactStoredOncePerRules(stack.pool)).toBeNull();
  });

  it(
    'queues the rebuild the scan owes once, however often it runs before the worker pays it',
    async () => {
      // The scan above redacted a reply and rebuilt nothing: a rebuild is owed.
      expect((await owedRebuilds(stack.pool)).length).toBe(1);
      const render = new Queue(RENDER_QUEUE, {
        connection: redisConnectionOptions(stack.config.REDIS_URL!),
        prefix: stack.config.QUEUE_PREFIX,
      });
      try {
        // Held, so the worker cannot pay it between the two runs.
        await render.pause();
        for (let i = 0; i < 2; i++) {
          const { stdout } = await run(process.execPath, ['cli/migrate.ts'], { env: env(), timeout: CLI_TIMEOUT });
          expect(stdout).toContain('queued a full rebuild');
        }
        const rebuilds = (await render.getJobs(['waiting', 'prioritized', 'delayed'])).filter(
          (job) => job.name === REBUILD_JOB,
        );
        expect(rebuilds).toHaveLength(1);
        await render.resume();
        await eventually(async () => (await owedRebuilds(stack.pool)).length === 0, 120_000);
        expect(leaked(await storedAndPublished())).toEqual([]);
      } finally {
        await render.resume();
        await render.close();
      }
    },
    3 * CLI_TIMEOUT,
  );
});
