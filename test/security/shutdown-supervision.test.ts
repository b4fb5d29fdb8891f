/**
 * Point 12: when the worker died under `npm start`, the launcher stopped the
 * API, which went on answering requests on kept-alive connections for about
 * 60 s. Now a drain stops accepting, closes idle kept-alive sockets at once
 * and answers with `Connection: close`; and the launcher restarts a crashed
 * child with backoff, within a bound per minute, instead of stopping the service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { admit, eventually, newKey, problemBody } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/ports.ts';
import { openRawConnection } from '../helpers/raw-socket.ts';
import { startStack } from '../helpers/stack.ts';

describe('an API drain', () => {
  it('closes idle kept-alive connections at once and answers the in-flight request with Connection: close', async () => {
    const stack = await startStack({ COMMIT_TIMEOUT_MS: '1500' }, { worker: false });
    const agent = await admit(stack.base);
    const idle = await openRawConnection(stack.api.port);
    idle.socket.write('GET /api/v1 HTTP/1.1\r\nHost: x\r\n\r\n');
    await eventually(async () => idle.socket.bytesRead > 0, 5_000);
    // A write with no worker waits for its commit timeout: in flight when the drain starts.
    const busy = await openRawConnection(stack.api.port);
    const body = JSON.stringify(problemBody());
    busy.socket.write(
      `POST /api/problems HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${agent.secret}\r\n` +
        `Idempotency-Key: ${newKey()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await new Promise((r) => setTimeout(r, 200));

    const started = Date.now();
    const closing = stack.close();
    await idle.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
    const answer = await busy.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503/);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    await closing;
    await expect(openRawConnection(stack.api.port)).rejects.toThrow();
  });
});

describe('npm start supervision', () => {
  let database: Awaited<ReturnType<typeof cloneDatabase>>;
  let dir: string;
  let launcher: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    database = await cloneDatabase(inject('templateDatabase'));
    dir = await mkdtemp(path.join(tmpdir(), 'ak-supervise-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    launcher = spawn(process.execPath, ['scripts/run-all.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: `t${randomUUID().replaceAll('-', '')}`,
        PROJECTIONS_DIR: dir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        RESTART_BACKOFF_MS: '100',
        RESTART_MAX_PER_MINUTE: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout!.on('data', (d) => (output += d));
    launcher.stderr!.on('data', (d) => (output += d));
    await eventually(
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );
  }, 90_000);
  afterAll(async () => {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const pidsOf = (entry: string) =>
    [...output.matchAll(new RegExp(`launcher: ${entry} started \\(pid (\\d+)\\)`, 'g'))].map((m) => Number(m[1]));

  it('restarts a crashed worker with a logged backoff while the API keeps serving', async () => {
    const [worker] = pidsOf('worker/main.ts');
    const [api] = pidsOf('api/server.ts');
    process.kill(worker!, 'SIGKILL');
    await eventually(async () => pidsOf('worker/main.ts').length === 2, 30_000);
    expect(output).toMatch(/launcher: worker\/main\.ts exited \(SIGKILL\); restarting in 100 ms/);
    expect((await fetch(`${base}/api/v1`)).status).toBe(200);
    expect(pidsOf('api/server.ts')).toEqual([api]);
  }, 60_000);

  it('stops the whole service when a child crashes more often than the bound per minute', async () => {
    for (let crash = 0; crash < 2; crash++) {
      const pids = pidsOf('worker/main.ts');
      process.kill(pids.at(-1)!, 'SIGKILL');
      if (crash === 0) await eventually(async () => pidsOf('worker/main.ts').length === pids.length + 1, 30_000);
    }
    const code = launcher.exitCode ?? (await new Promise<number | null>((r) => launcher.once('exit', r)));
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /launcher: worker\/main\.ts exited \(SIGKILL\) 3 times within a minute; stopping the service/,
    );
  }, 60_000);
});
