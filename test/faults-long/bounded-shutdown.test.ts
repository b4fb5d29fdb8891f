/**
 * `npm start` stopped under write load, thirty times: SIGTERM to the
 * launcher's process group while writers are committing, rendering and
 * waiting on receipts. Every time the launcher, the API and the worker have
 * exited within SHUTDOWN_GRACE_MS, and nothing acknowledged is lost (each
 * receipt's record is in the database after the last start).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../db/pool.ts';
import { admit, problemBody, send, type Agent } from '../helpers/client.ts';
import {
  freePort,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '../helpers/private-services.ts';
import { isAlive } from '../helpers/process-alive.ts';
import { reap } from '../helpers/reaper.ts';

const STOPS = 30;
const GRACE_MS = 4_000;
let postgres: PrivatePostgres;
let redis: PrivateRedis;
let dir: string;
let env: Record<string, string>;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-stops-'));
  postgres = await startPrivatePostgres();
  redis = await startPrivateRedis();
  port = await freePort();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: postgres.url('agent_knowledge'),
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'stops',
    PROJECTIONS_DIR: path.join(dir, 'projections'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    PUBLIC_ORIGIN: 'http://service.test',
    WRITE_RATE_LIMIT: '1000000',
    READ_RATE_LIMIT: '1000000',
    ADMISSION_RATE_LIMIT: '1000',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  };
});
afterAll(async () => {
  await redis?.destroy();
  await postgres?.destroy();
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `npm start`'s launcher in a process group of its own; resolves once the API answers. */
async function launch() {
  const launcher = spawn(process.execPath, ['scripts/run-all.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const unreap = reap({ kind: 'pid', target: String(launcher.pid), marker: 'scripts/run-all.ts' });
  let output = '';
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    launcher.once('exit', () => {
      unreap();
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  for (
    const until = Date.now() + 60_000;
    !(await fetch(`${base}/api/v1`).then(
      (r) => r.ok,
      () => false,
    ));
  ) {
    if (Date.now() > until) throw new Error(`the service did not start:\n${output}`);
    await sleep(100);
  }
  const children = () => [...output.matchAll(/started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
  return { launcher, exited, base, children };
}

describe('npm start stopped under write load', () => {
  it(
    `has every process exit within the grace period, ${STOPS} times out of ${STOPS}`,
    async () => {
      const exits: number[] = [];
      const late: string[] = [];
      const acknowledged: string[] = [];
      let agents: Agent[] = [];
      for (let stop = 0; stop < STOPS; stop++) {
        const service = await launch();
        if (agents.length === 0) agents = await Promise.all(Array.from({ length: 4 }, () => admit(service.base)));
        let writing = true;
        // Writers create and edit until the service stops answering.
        const writers = agents.map(async (agent) => {
          while (writing) {
            const created = await send(
              service.base,
              agent,
              'POST',
              '/api/problems',
              problemBody({ title: `Stop ${stop} load` }),
            ).catch(() => null);
            if (created?.status !== 201) {
              await sleep(20);
              continue;
            }
            acknowledged.push(created.body.resource.id);
            await send(service.base, agent, 'PATCH', `/api/problems/${created.body.resource.id}`, {
              base_revision: 1,
              title: `Stop ${stop} edited`,
            }).catch(() => null);
          }
        });
        await sleep(300 + ((stop * 337) % 1200));
        const children = service.children();
        const stopped = Date.now();
        process.kill(-service.launcher.pid!, 'SIGTERM');
        await Promise.race([service.exited, sleep(GRACE_MS + 5_000)]);
        const launcherMs = Date.now() - stopped;
        while (children.some(isAlive) && Date.now() - stopped < GRACE_MS + 5_000) await sleep(20);
        const lastMs = Date.now() - stopped;
        exits.push(lastMs);
        if (launcherMs >= GRACE_MS || lastMs >= GRACE_MS)
          late.push(`stop ${stop}: launcher ${launcherMs} ms, last child ${lastMs} ms`);
        for (const pid of [service.launcher.pid!, ...children]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
        writing = false;
        await Promise.all(writers);
      }
      console.log(
        `${STOPS} stops under write load: slowest exit ${Math.max(...exits)} ms, median ${exits.sort((a, b) => a - b)[STOPS >> 1]} ms (grace ${GRACE_MS} ms)`,
      );
      expect(late).toEqual([]);

      // Every acknowledged create is in the database.
      const pool = createPool(env.DATABASE_URL!, 2);
      try {
        const { rows } = await pool.query<{ id: string }>('SELECT id FROM problems WHERE id = ANY($1)', [acknowledged]);
        expect(rows.length).toBe(new Set(acknowledged).size);
      } finally {
        await pool.end();
      }
    },
    30 * 60_000,
  );
});
