/**
 * The README's run command on a machine with only Node.js: no DATABASE_URL,
 * no REDIS_URL. Real processes (launcher, API, worker), embedded PGlite,
 * queues on BullMQ's PostgreSQL backend.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';
import { admit, eventually, newKey, problemBody, send } from '../helpers/client.ts';

let dir: string;
let port: number;
let pgPort: number;
let launcher: ChildProcess | null = null;
let output = '';

async function start(): Promise<string> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    EMBEDDED_DATA_DIR: path.join(dir, 'pglite'),
    PROJECTIONS_DIR: path.join(dir, 'projections'),
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    QUEUE_PREFIX: 'embedded',
  };
  delete env.DATABASE_URL;
  launcher = spawn(process.execPath, ['scripts/run-all.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  launcher.stdout!.on('data', (d) => (output += d));
  launcher.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  // PGlite compiles its WebAssembly and runs initdb first: minutes on a loaded machine.
  await eventually(
    () =>
      fetch(`${base}/api/v1`).then(
        (r) => r.ok,
        () => false,
      ),
    150_000,
  );
  return base;
}

async function stop(): Promise<number | null> {
  const child = launcher!;
  launcher = null;
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-embedded-'));
  [port, pgPort] = [await freePort(), await freePort()];
});
afterAll(async () => {
  if (launcher) await stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the embedded default', () => {
  it('runs the core loop with no DATABASE_URL and no REDIS_URL, and keeps the data across a restart', async () => {
    let base = await start();
    expect(output).toContain('embedded PostgreSQL (PGlite)');
    expect(output).toContain('queues and rate limits run on PostgreSQL');

    const agent = await admit(base);
    const key = newKey();
    const created = await send(base, agent, 'POST', '/api/problems', problemBody({ title: 'Embedded core loop' }), {
      key,
    });
    expect(created.status).toBe(201);
    const replay = await send(base, agent, 'POST', '/api/problems', problemBody({ title: 'Embedded core loop' }), {
      key,
    });
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    const id = created.body.resource.id;
    const edited = await send(base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'Embedded core loop, edited',
    });
    expect(edited.status).toBe(201);

    const json = await eventually(async () => {
      const res = await fetch(`${base}/problems/${id}.json`);
      const body = res.ok ? await res.json() : null;
      return body?.revision === 2 ? body : null;
    }, 30_000);
    expect(json.title).toBe('Embedded core loop, edited');
    // The three projections are written one after another: the HTML may follow the JSON by a moment.
    await eventually(
      async () => (await (await fetch(`${base}/problems/${id}`)).text()).includes('Embedded core loop, edited'),
      30_000,
    );
    expect((await fetch(`${base}/problems/${id}.md?revision=1`)).status).toBe(200);
    // Search follows the commits here too: the one process's catch-up indexes the edit.
    await eventually(async () => {
      const found = await (
        await fetch(`${base}/api/search?${new URLSearchParams({ q: 'Embedded core loop, edited' })}`)
      ).json();
      return found.items?.some(
        (item: { id: string; title: string }) => item.id === id && item.title === 'Embedded core loop, edited',
      );
    }, 30_000);

    // A first start on an empty folder is not an error: nothing at level error or above (50+) in its log.
    expect(output.split('\n').filter((line) => /"level":(5|6)0/.test(line))).toEqual([]);
    expect(await stop()).toBe(0);
    base = await start();
    const again = await (await fetch(`${base}/api/v1/problems/${id}`)).json();
    expect(again).toMatchObject({ id, revision: 2, title: 'Embedded core loop, edited' });
    expect(
      (await send(base, agent, 'POST', '/api/problems', problemBody({ title: 'Embedded core loop' }), { key })).status,
    ).toBe(200);
  }, 420_000);
});
