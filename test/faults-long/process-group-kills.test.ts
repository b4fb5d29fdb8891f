/**
 * The service as six processes on one machine (two APIs, two commit workers,
 * two render workers) behind nginx, sharing PostgreSQL, Redis and the
 * projections folder. Under sustained writes each process in turn is
 * SIGKILLed and started again. Clients retry a 503, a 502 (nginx: the API it
 * chose died with the request) or a lost connection with the same
 * Idempotency-Key. Afterwards every acknowledged write is there exactly once
 * and served, and every receipt was readable through either API at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { loadConfig, type Config } from '../../core/config.ts';
import { ensureDatabase, migrate } from '../../db/migrate.ts';
import { createPool } from '../../db/pool.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { admit, eventually, type Agent } from '../helpers/client.ts';
import {
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '../helpers/private-services.ts';
import { startProcessGroup, type ProcessGroup } from '../helpers/process-group.ts';
import { checkProjections } from '../helpers/projection-check.ts';
import { AnswerLog, expectOnlyRetryableRefusals } from '../helpers/retrying-client.ts';
import { checkAcknowledged, runAgent, seededRandom, type AcknowledgedWrite } from '../helpers/workload.ts';

const CLIENTS = 6;
const COMMIT_TIMEOUT_MS = 5000;
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);

let dir: string;
let postgres: PrivatePostgres;
let redis: PrivateRedis;
let pool: pg.Pool;
let config: Config;
let group: ProcessGroup;
let agents: Agent[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-group-'));
  postgres = await startPrivatePostgres();
  redis = await startPrivateRedis();
  const env: Record<string, string> = {
    DATABASE_URL: postgres.url('agent_knowledge'),
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'group',
    PROJECTIONS_DIR: path.join(dir, 'projections'),
    LOG_LEVEL: 'info',
    PUBLIC_ORIGIN: 'http://service.test',
    COMMIT_TIMEOUT_MS: String(COMMIT_TIMEOUT_MS),
    RETRY_AFTER_SECONDS: '1',
    // The load comes from a handful of identities on one address (nginx's).
    WRITE_RATE_LIMIT: '1000000',
    READ_RATE_LIMIT: '1000000',
    ADMISSION_RATE_LIMIT: '1000',
  };
  config = loadConfig(env);
  await ensureDatabase(config.DATABASE_URL);
  pool = createPool(config.DATABASE_URL, 5);
  await migrate(pool);
  group = await startProcessGroup(
    env,
    { apis: 2, commitWorkers: 2, renderWorkers: 2 },
    dir,
    path.resolve(config.ASTRO_CLIENT_DIR),
  );
  agents = [];
  for (let i = 0; i < CLIENTS; i++) agents.push(await admit(group.base));
}, 5 * 60_000);

afterAll(async () => {
  await group?.close();
  await pool?.end();
  await redis?.destroy();
  await postgres?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ReadBack {
  api: string;
  id: string;
  receipt: number;
  /** The revision the API served, or its status when it served none. */
  served: number | string;
}

/** Reads a problem write back through every API directly (not nginx); an API that is down right now is skipped. */
async function readBackEverywhere(ack: AcknowledgedWrite, reads: ReadBack[]): Promise<void> {
  if (ack.write.kind !== 'create_problem' && ack.write.kind !== 'edit_problem') return;
  const { id, revision } = ack.receipt.resource;
  for (const api of group.apis) {
    if (!api.process.running) continue;
    let res: Response;
    try {
      res = await fetch(`${api.base}/api/v1/problems/${id}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      continue; // killed between the check and the request
    }
    const served = res.status === 200 ? ((await res.json()) as { revision: number }).revision : `status ${res.status}`;
    reads.push({ api: api.name, id, receipt: revision!, served });
  }
}

describe('six processes behind nginx, each SIGKILLed in turn under writes', () => {
  it('keeps every acknowledged write exactly once, serves it, and reads it back through either API', async () => {
    const log = new AnswerLog();
    const budget = { left: Number.MAX_SAFE_INTEGER };
    const reads: ReadBack[] = [];
    const random = seededRandom(SEED);
    const crashed = () => group.crashes()[0] ?? null;
    const started = Date.now();
    const load = Promise.all(
      agents.map((agent, i) =>
        runAgent(group.base, agent, log, {
          budget,
          seed: SEED + i + 1,
          deadline: Date.now() + 10 * 60_000,
          requestTimeoutMs: COMMIT_TIMEOUT_MS + 15_000,
          aborted: crashed,
          alsoRetry: [502],
          onAcknowledged: (ack) => readBackEverywhere(ack, reads),
        }),
      ),
    );

    // Each process in turn, render workers first (their restart renders the backlog, smallest early):
    // killed while writes are in flight, started again once it is gone.
    const order = [...group.processes].reverse();
    const killed: string[] = [];
    try {
      for (const p of order) {
        await sleep(1000 + random() * 1000);
        await p.process.kill();
        killed.push(p.name);
        await sleep(300 + random() * 500);
        await p.process.start();
      }
      await sleep(2000);
    } finally {
      budget.left = 0;
    }
    const acks = (await load).flat();
    const loadMs = Date.now() - started;

    const statuses = log.byStatus();
    expect(statuses['201']).toBeGreaterThan(0);
    expectOnlyRetryableRefusals(log, ['200', '201', '502', '503', 'network'], COMMIT_TIMEOUT_MS + 15_000);
    expect(killed).toEqual(order.map((p) => p.name));
    expect(group.crashes()).toEqual([]);

    // Lost nothing, doubled nothing: each receipt's record once, each key once.
    const ledger = await checkAcknowledged(pool, acks);
    expect(ledger.problems).toEqual([]);
    const ids = agents.map((a) => a.id);
    const ops = await pool.query<{ identity_id: string; idempotency_key: string; id: string }>(
      `SELECT identity_id, idempotency_key, receipt->'resource'->>'id' AS id FROM operations WHERE identity_id = ANY($1::text[])`,
      [ids],
    );
    expect(ops.rowCount).toBe(acks.length);
    const byKey = new Map(ops.rows.map((r) => [`${r.identity_id} ${r.idempotency_key}`, r.id]));
    for (const ack of acks) expect(byKey.get(`${ack.identityId} ${ack.key}`), ack.key).toBe(ack.receipt.resource.id);
    const changes = await pool.query<{ n: string }>('SELECT count(*) AS n FROM changes');
    expect(Number(changes.rows[0]!.n)).toBe(acks.length + CLIENTS);

    // Served: every projection written and current, and each problem's latest revision through nginx.
    const catchUpStarted = Date.now();
    await eventually(async () => (await countUnrenderedChanges(pool)) === 0, 120_000);
    const catchUpMs = Date.now() - catchUpStarted;
    const projections = await checkProjections(pool, config.ASTRO_ENTRY, config.PROJECTIONS_DIR);
    expect(projections.missing).toEqual([]);
    expect(projections.stale).toEqual([]);
    expect(projections.extra).toEqual([]);
    const latest = new Map<string, number>();
    for (const ack of acks) {
      if (ack.write.kind !== 'create_problem' && ack.write.kind !== 'edit_problem') continue;
      const { id, revision } = ack.receipt.resource;
      latest.set(id, Math.max(latest.get(id) ?? 0, revision!));
    }
    for (const [id, revision] of latest) {
      const res = await fetch(`${group.base}/api/v1/problems/${id}`, { headers: { accept: 'application/json' } });
      expect(res.status, id).toBe(200);
      expect(((await res.json()) as { revision: number }).revision, id).toBe(revision);
    }

    // Read-your-writes through either API: right after a receipt, no API served an older revision.
    const older = reads.filter((r) => typeof r.served !== 'number' || r.served < r.receipt);
    console.log(
      JSON.stringify(
        {
          seed: SEED,
          writes: acks.length,
          killed,
          load_seconds: loadMs / 1000,
          render_catch_up_ms: catchUpMs,
          answers: statuses,
          read_backs: reads.length,
          read_backs_older_than_receipt: older.length,
          retried_writes: acks.filter((a) => a.attempts > 1).length,
          slowest_answer_ms: log.slowest(),
          projection_files: projections.expected,
        },
        null,
        2,
      ),
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(older).toEqual([]);
  });
});
