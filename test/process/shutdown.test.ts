/**
 * Graceful shutdown of the real entry files: the first SIGTERM stops
 * accepting, lets in-flight requests and jobs finish, then exits 0, its log
 * lines all written (they are written in batches: infra/log-destination.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { admit, eventually, newKey, problemBody, send } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let dir: string;
let env: Record<string, string | undefined>;
const running: ChildProcess[] = [];

function launch(entry: string, overrides: Record<string, string> = {}): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [entry], { env: { ...env, ...overrides }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}
const exitOf = (child: ChildProcess) =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise<number | null>((r) => child.once('exit', r));

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  dir = await mkdtemp(path.join(tmpdir(), 'ak-shutdown-'));
  env = {
    ...process.env,
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomUUID().replaceAll('-', '')}`,
    PROJECTIONS_DIR: dir,
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    PUBLIC_ORIGIN: 'http://service.test',
  };
});
afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('lets the API answer a write already in flight, then exit 0; the worker drains and exits 0', async () => {
    const base = `http://127.0.0.1:${env.PORT}`;
    const api = launch('api/server.ts');
    await eventually(
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
    );
    const agent = await admit(base);

    // No worker yet: the write waits in the API for its commit.
    const key = newKey();
    const pending = send(base, agent, 'POST', '/api/problems', problemBody({ title: 'In flight at shutdown' }), {
      key,
    });
    await new Promise((r) => setTimeout(r, 300));
    api.kill('SIGTERM');
    // The API keeps the accepted request open; a worker now commits it.
    const worker = launch('worker/main.ts');
    const answer = await pending;
    expect(answer.status).toBe(201);
    expect(await exitOf(api)).toBe(0);
    // New connections are refused once it has stopped.
    await expect(fetch(`${base}/api/v1`)).rejects.toThrow();

    worker.kill('SIGTERM');
    expect(await exitOf(worker)).toBe(0);
  }, 90_000);

  it("writes the API's request line of every answer before it exits", async () => {
    const base = `http://127.0.0.1:${env.PORT}`;
    const api = launch('api/server.ts', { LOG_LEVEL: 'info' });
    await eventually(
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
    );
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${base}/api/v1`);
      await res.arrayBuffer();
      ids.push(res.headers.get('x-request-id')!);
    }
    // At once: the last lines are still pending in the process when the signal comes.
    api.kill('SIGTERM');
    expect(await exitOf(api)).toBe(0);
    const logged = new Set(
      api
        .output()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; requestId?: string })
        .filter((line) => line.msg === 'request')
        .map((line) => line.requestId),
    );
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  }, 60_000);
});
