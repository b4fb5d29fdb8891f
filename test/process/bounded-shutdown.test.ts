/**
 * Shutdown answers what it has started to read and is bounded: after
 * SIGTERM every process exits within SHUTDOWN_GRACE_MS whatever its requests
 * and jobs are doing, and work cut there is done after the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '../../db/pool.ts';
import { admit, eventually, newKey, problemBody, send } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/ports.ts';
import { isAlive } from '../helpers/process-alive.ts';
import { openRawConnection } from '../helpers/raw-socket.ts';

const GRACE_MS = 3_000;
let database: Awaited<ReturnType<typeof cloneDatabase>>;
let dir: string;
let env: Record<string, string>;
let pool: pg.Pool;
const running: ChildProcess[] = [];

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  dir = await mkdtemp(path.join(tmpdir(), 'ak-bounded-'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomUUID().replaceAll('-', '')}`,
    PROJECTIONS_DIR: dir,
    LOG_LEVEL: 'warn',
    PUBLIC_ORIGIN: 'http://service.test',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  };
  pool = createPool(database.url, 4, 'ak-test');
});
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await pool.end();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** `npm start` as a service manager runs it: in a process group of its own, stopped by signalling the group. */
function launch(port: number) {
  const launcher = spawn(process.execPath, ['scripts/run-all.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  running.push(launcher);
  let output = '';
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()));
  return {
    launcher,
    exited,
    output: () => output,
    /** The API's and the worker's pids, from the launcher's log. */
    children: () => [...output.matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1])),
    stopGroup: () => process.kill(-launcher.pid!, 'SIGTERM'),
  };
}

describe("SIGTERM to npm start's process group while a request is being read", () => {
  it('answers the request once its body has arrived, however many times the signal comes', async () => {
    const port = await freePort();
    const service = launch(port);
    await eventually(
      () =>
        fetch(`http://127.0.0.1:${port}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );
    const connection = await openRawConnection(port);
    const body = JSON.stringify({ kind: 'guest', credential_hash: 'x'.repeat(43) });
    connection.socket.write(
      `POST /api/public/admission HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    // Under `npm start` each process hears the stop more than once (the group's signal, npm's and the launcher's forwards).
    service.stopGroup();
    await new Promise((r) => setTimeout(r, 50));
    service.stopGroup();
    await new Promise((r) => setTimeout(r, 250));
    connection.socket.write(body.slice(10));
    const answer = await connection.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 (201|400|403) /);
    await service.exited;
  }, 90_000);
});

describe('npm start stopped while a record is locked by someone else', () => {
  it('has the launcher, the API and the worker exit within the grace period; the edit is rendered after the next start', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = launch(port);
    await eventually(
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );
    const agent = await admit(base);
    const created = await send(base, agent, 'POST', '/api/problems', problemBody({ title: 'Locked while stopping' }));
    const id = created.body.resource.id as string;
    const json = path.join(dir, 'problems', `${id}.json`);
    await eventually(async () => existsSync(json));

    // Someone else holds the record's render lock: the render of the edit (and its receipt) wait on it.
    const holder = await pool.connect();
    await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [id]);
    const key = newKey();
    const edit = { base_revision: 1, title: 'Edited while stopping' };
    const pending = send(base, agent, 'PATCH', `/api/problems/${id}`, edit, { key }).catch(() => null);
    await eventually(async () => {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
      );
      return rows[0]!.n >= 1;
    });

    const children = first.children();
    expect(children).toHaveLength(2);
    const stopped = Date.now();
    first.stopGroup();
    await first.exited;
    const launcherMs = Date.now() - stopped;
    await eventually(async () => children.every((pid) => !isAlive(pid)), GRACE_MS);
    expect(launcherMs).toBeLessThan(GRACE_MS);
    await pending;
    await holder.query('SELECT pg_advisory_unlock_all()');
    holder.release();

    // Started again: the client replays its edit with the same key; the worker renders it.
    const second = launch(port);
    await eventually(
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );
    const replayed = await send(base, agent, 'PATCH', `/api/problems/${id}`, edit, { key });
    expect([200, 201]).toContain(replayed.status);
    // The render cut by the stop is done once its lease lapses (30 s at most).
    await eventually(
      async () => existsSync(json) && readFileSync(json, 'utf8').includes('Edited while stopping'),
      60_000,
    );
    second.stopGroup();
    await second.exited;
  }, 180_000);
});
