/**
 * Hole 2: the operator rebuild deleted files outside the projections folder
 * (`{"type":"problem","id":"../../../dist/client/agent-help/authentication"}`).
 * Ids are now checked by shape where they enter (endpoint, CLI, worker), and
 * every worker write and removal goes through `pathInside`.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { REBUILD_JOB, RENDER_QUEUE } from '../../core/queue-contract.ts';
import { createQueue, queueBackendOf } from '../../infra/queues.ts';
import { removeProjectionFile, writeProjectionFile } from '../../projections/publish-file.ts';
import { pathInside, PathOutsideRootError } from '../../projections/safe-path.ts';
import { errorOf } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
/** Files beside and above the projections folder that no rebuild may touch. */
let victims: string[];

beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN) });
  const dir = stack.config.PROJECTIONS_DIR;
  victims = [
    path.join(dir, '..', `${path.basename(dir)}-x.json`),
    path.join(dir, '..', `${path.basename(dir)}-x.html`),
  ];
  await Promise.all(victims.map((v) => writeFile(v, 'keep me')));
});
afterAll(() => stack.close());

const rebuild = (body: unknown) =>
  fetch(`${stack.base}/api/ops/rebuild`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });

const TRAVERSALS = [
  `../${'x'}`,
  '../../x',
  '../../../dist/client/agent-help/authentication',
  '/etc/passwd',
  'prb_00000000000000000000000000/../../x',
];

describe('rebuild targets are record ids, never paths', () => {
  it('refuses every traversal id at the endpoint with 400 naming the id, and touches no file', async () => {
    for (const id of [...TRAVERSALS, `../../${path.basename(victims[0]!, '.json')}`]) {
      const res = await rebuild({ type: 'problem', id });
      expect(res.status, id).toBe(400);
      expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', field: 'id' });
    }
    for (const victim of victims) expect(await readFile(victim, 'utf8')).toBe('keep me');
  });

  it('has the worker refuse a traversal job put on the queue directly, and touches no file', async () => {
    const queue = createQueue(queueBackendOf(stack.config), RENDER_QUEUE, true);
    try {
      const job = await queue.add(REBUILD_JOB, { type: 'problem', id: `../../${path.basename(victims[0]!, '.json')}` });
      const until = Date.now() + 10_000;
      let state = await job.getState();
      while (state !== 'failed' && state !== 'completed' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        state = await job.getState();
      }
      expect(state).toBe('failed');
    } finally {
      await queue.close();
    }
    for (const victim of victims) expect(await readFile(victim, 'utf8')).toBe('keep me');
  });

  it('has the operator CLI refuse a traversal id with a usage error', async () => {
    const cli = run('npm', ['run', '--silent', 'ops', '--', 'rebuild', '--type', 'problem', '--id', '../../x'], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      timeout: 60_000,
    });
    const failure = await cli.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('--id');
  });
});

describe('pathInside, the one path function of worker file writes', () => {
  it('refuses paths that resolve outside the root and allows those inside', () => {
    const root = '/srv/projections';
    for (const bad of ['../x', '../../x', '/etc/passwd', 'problems/../../x', 'a\0b', '.', '']) {
      expect(() => pathInside(root, bad), JSON.stringify(bad)).toThrow(PathOutsideRootError);
    }
    expect(pathInside(root, 'problems/prb_x.json')).toBe('/srv/projections/problems/prb_x.json');
  });

  it('keeps writes and removals of projection files inside the projections folder', async () => {
    const dir = path.join(stack.config.PROJECTIONS_DIR, 'inner');
    await mkdir(dir, { recursive: true });
    await expect(removeProjectionFile(dir, `../../${path.basename(victims[0]!)}`)).rejects.toThrow(
      PathOutsideRootError,
    );
    await expect(writeProjectionFile(dir, `../../${path.basename(victims[1]!)}`, Buffer.from('x'))).rejects.toThrow(
      PathOutsideRootError,
    );
    for (const victim of victims) expect(await readFile(victim, 'utf8')).toBe('keep me');
  });
});
