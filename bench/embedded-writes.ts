/**
 * The embedded mode (`npm start` with no DATABASE_URL and no REDIS_URL): one
 * write at a time through the real launcher process, receipt latency, against
 * the same transaction (operation, problem, revision, change) sent straight
 * to the same PGlite over its socket from this process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { admit } from '../test/helpers/client.ts';
import { freePort } from '../test/helpers/ports.ts';
import { createPool } from '../db/pool.ts';
import { commitDirect } from './lib/direct-commit.ts';
import { problemContent } from './lib/seed.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';
import { until } from './lib/wait.ts';

const WRITES = 40;
const WARMUP = 5;
const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const embeddedWrites: Bench = {
  name: 'embedded-writes',
  title:
    'embedded mode (PGlite, queues on PostgreSQL): write receipt latency one at a time vs the same transaction straight to PGlite',
  budgetSeconds: 240,
  async run(ctx) {
    const [port, pgPort] = [await freePort(), await freePort()];
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      EMBEDDED_DATA_DIR: ctx.tempFile('pglite'),
      PROJECTIONS_DIR: ctx.tempFile('projections'),
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      QUEUE_PREFIX: 'embedded',
      ADMISSION_RATE_LIMIT: '1000',
      WRITE_RATE_LIMIT: '100000',
    };
    delete env.DATABASE_URL;
    const launcher = spawn(process.execPath, ['scripts/run-all.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    ctx.defer(
      () =>
        new Promise<void>((resolve) => {
          if (launcher.exitCode !== null) return resolve();
          launcher.once('exit', () => resolve());
          launcher.kill('SIGTERM');
        }),
    );
    const base = `http://127.0.0.1:${port}`;
    const startSeconds = await until(
      'the embedded launcher',
      () =>
        fetch(`${base}/api/v1`).then(
          (r) => r.ok,
          () => false,
        ),
      180_000,
    );
    ctx.log(`launcher up in ${round(startSeconds, 1)} s (PGlite, migrations, API and worker in one process)`);

    const agent = await admit(base);
    const run = randomBytes(4).toString('hex');
    const write = async (i: number) => {
      const started = performance.now();
      const res = await fetch(`${base}/api/problems`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${agent.secret}`,
          'idempotency-key': `bench:${run}-${i}`,
        },
        body: JSON.stringify(problemContent(run, i)),
      });
      await res.text();
      if (res.status !== 201) throw new Error(`write answered ${res.status}`);
      return performance.now() - started;
    };
    const pool = createPool(`postgres://postgres@127.0.0.1:${pgPort}/postgres`, 1);
    ctx.defer(() => pool.end());
    const direct = async (i: number) => {
      const started = performance.now();
      await commitDirect(pool, agent.id, `bench:${run}-direct-${i}`, problemContent(`${run}-direct`, i));
      return performance.now() - started;
    };
    // Taking turns, so both meet the same machine load and the same renders in the launcher.
    const service: number[] = [];
    const directs: number[] = [];
    for (let i = 0; i < WARMUP + WRITES; i++) {
      const a = await write(i);
      const b = await direct(i);
      if (i >= WARMUP) {
        service.push(a);
        directs.push(b);
      }
    }
    const s = summarize(service);
    const d = summarize(directs);
    ctx.log(
      `HTTP write     p50 ${round(s.p50)} ms, p95 ${round(s.p95)} ms (${WRITES} writes, one at a time, after ${WARMUP} to warm up, taking turns with the direct ones)`,
    );
    ctx.log(
      `direct PGlite  p50 ${round(d.p50)} ms, p95 ${round(d.p95)} ms (the same four INSERTs in one transaction, over the same socket)`,
    );
    const label = 'the same transaction straight to PGlite';
    return {
      comparisons: [
        {
          metric: 'embedded write receipt p50',
          unit: 'ms',
          value: s.p50,
          baselineLabel: label,
          baseline: d.p50,
          better: 'lower',
        },
        {
          metric: 'embedded write receipt p95',
          unit: 'ms',
          value: s.p95,
          baselineLabel: label,
          baseline: d.p95,
          better: 'lower',
        },
      ],
      details: {
        writes: WRITES,
        warmup: WARMUP,
        startSeconds: round(startSeconds),
        service: roundAll(s),
        direct: roundAll(d),
      },
      notes: [
        'Target: p50 at most 150 ms on a quiet machine (the embedded mode is for trying the service on one machine).',
      ],
    };
  },
};
