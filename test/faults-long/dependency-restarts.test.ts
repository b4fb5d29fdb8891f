/**
 * Redis, then PostgreSQL, stopped for a while and started again under a
 * steady write and read load. Meanwhile the API may only answer as usual or
 * 503 + Retry-After, never 500 and never later than the commit timeout
 * allows; afterwards it serves again by itself (neither the API nor the
 * worker restarts), and every acknowledged write is there exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../core/schemas/responses.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { readSearchDocumentsLag } from '../../db/queries/search.ts';
import { admit, eventually, type Agent } from '../helpers/client.ts';
import { startFaultStack, type FaultStack } from '../helpers/fault-stack.ts';
import { checkProjections } from '../helpers/projection-check.ts';
import { AnswerLog, expectOnlyRetryableRefusals, writeUntilAcknowledged } from '../helpers/retrying-client.ts';
import { checkAcknowledged, runAgent, type AcknowledgedWrite } from '../helpers/workload.ts';

const WRITERS = 8;
const COMMIT_TIMEOUT_MS = 5000;
/** How long a dependency stays away. */
const DOWN_MS = 6000;
/** Slack on top of the commit timeout for a loaded 2-core machine; an answer later than this is a hang. */
const HANG_MS = COMMIT_TIMEOUT_MS + 10_000;
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);

let stack: FaultStack;
let agents: Agent[];
let problemPath: string;
const acknowledged: AcknowledgedWrite[] = [];

beforeAll(async () => {
  stack = await startFaultStack({ COMMIT_TIMEOUT_MS: String(COMMIT_TIMEOUT_MS), RETRY_AFTER_SECONDS: '1' });
  agents = [];
  for (let i = 0; i < WRITERS; i++) agents.push(await admit(stack.base));
  const first = await writeUntilAcknowledged(
    stack.base,
    agents[0]!,
    'POST',
    '/api/problems',
    { title: 'A problem to read during faults', body: 'read me', product: 'fault-tests' },
    'faults:read-target-0001',
    new AnswerLog(),
    { deadline: Date.now() + 30_000, requestTimeoutMs: HANG_MS },
  );
  problemPath = `/problems/${first.receipt.resource.id}.json`;
  await eventually(async () => (await fetch(stack.base + problemPath)).status === 200, 60_000);
});
afterAll(() => stack?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads the API keeps serving or refuses with 503: static projections, and reads that need the database. */
async function readUntil(stop: () => boolean, log: AnswerLog, agent: Agent): Promise<void> {
  const reads: [string, Record<string, string>][] = [
    [problemPath, {}],
    ['/api/v1', {}],
    ['/api/problems', {}],
    ['/api/v1/changes?limit=5', {}],
    ['/api/whoami', { authorization: `Bearer ${agent.secret}` }],
  ];
  for (let i = 0; !stop(); i++) {
    const [path, headers] = reads[i % reads.length]!;
    const started = Date.now();
    try {
      const res = await fetch(stack.base + path, { headers, signal: AbortSignal.timeout(HANG_MS) });
      const text = await res.text();
      let code: string | null = null;
      let shaped: boolean | null = null;
      if (res.status >= 400) {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON: not the Error shape either
        }
        const parsed = ErrorBodySchema.safeParse(json);
        shaped = parsed.success;
        code = parsed.success ? parsed.data.error.code : null;
      }
      log.record({
        status: res.status,
        ms: Date.now() - started,
        at: started,
        retryAfter: res.headers.get('retry-after'),
        errorShape: shaped,
        code,
      });
    } catch (error) {
      log.record({
        status: 0,
        ms: Date.now() - started,
        at: started,
        retryAfter: null,
        errorShape: null,
        code: null,
        networkError: (error as Error).name,
      });
    }
    await sleep(50);
  }
}

interface FaultRun {
  writes: AnswerLog;
  reads: AnswerLog;
  acks: AcknowledgedWrite[];
  downAt: number;
  upAt: number;
  seed: number;
}

/** Runs writers and a reader, applies `fault` after a warm-up, keeps the load on a while, then lets every write finish. */
async function underLoad(fault: () => Promise<{ downAt: number; upAt: number }>, seed: number): Promise<FaultRun> {
  const writes = new AnswerLog();
  const reads = new AnswerLog();
  const budget = { left: Number.MAX_SAFE_INTEGER };
  let stopReading = false;
  const writers = Promise.all(
    agents.map((agent, i) =>
      runAgent(stack.base, agent, writes, {
        budget,
        seed: seed + i,
        deadline: Date.now() + 5 * 60_000,
        requestTimeoutMs: HANG_MS,
        aborted: () => stack.abortReason(),
      }),
    ),
  );
  const reader = readUntil(() => stopReading, reads, agents[0]!);
  try {
    await sleep(2000);
    const { downAt, upAt } = await fault();
    await sleep(4000);
    budget.left = 0;
    const acks = (await writers).flat();
    return { writes, reads, acks, downAt, upAt, seed };
  } finally {
    budget.left = 0;
    stopReading = true;
    await reader;
    await writers.catch(() => {});
  }
}

/**
 * After the restart, writes are answered 201 again: a 201 is only given when
 * the commit event reaches the waiting request, so QueueEvents is consuming
 * again (were it not, every write would wait out the commit timeout and be
 * answered 200 from the operation log).
 */
function expectCommitEventsAfter(run: FaultRun) {
  expect(run.writes.answers.some((a) => a.status === 201 && a.at > run.upAt)).toBe(true);
}

function summarise(name: string, run: FaultRun) {
  const firstAckAfterUp = run.writes.answers
    .filter((a) => (a.status === 200 || a.status === 201) && a.at >= run.upAt)
    .reduce((min, a) => Math.min(min, a.at + a.ms), Infinity);
  const refusedWhileDown = run.writes.answers.filter(
    (a) => a.status === 503 && a.at >= run.downAt && a.at < run.upAt,
  ).length;
  const report = {
    fault: name,
    seed: run.seed,
    down_ms: run.upAt - run.downAt,
    writes_acknowledged: run.acks.length,
    write_answers: run.writes.byStatus(),
    read_answers: run.reads.byStatus(),
    writes_refused_while_down: refusedWhileDown,
    first_write_acknowledged_after_restart_ms: firstAckAfterUp - run.upAt,
    slowest_write_answer_ms: run.writes.slowest(),
    longest_wait_for_an_acknowledgement_ms: run.acks.reduce((max, a) => Math.max(max, a.elapsedMs), 0),
    slowest_read_answer_ms: run.reads.slowest(),
  };
  console.log(JSON.stringify(report, null, 2));
  return report;
}

async function expectNothingLost() {
  const ledger = await checkAcknowledged(stack.pool, acknowledged);
  expect(ledger.problems).toEqual([]);
  const ops = await stack.pool.query<{ identity_id: string; idempotency_key: string; id: string }>(
    `SELECT identity_id, idempotency_key, receipt->'resource'->>'id' AS id FROM operations WHERE idempotency_key LIKE 'faults:%'`,
  );
  const byKey = new Map(ops.rows.map((r) => [`${r.identity_id} ${r.idempotency_key}`, r.id]));
  // Every acknowledged key once, with the receipt's record; no operation nobody acknowledged
  // (every write a client started was retried until acknowledged).
  expect(ops.rowCount).toBe(acknowledged.length + 1);
  for (const ack of acknowledged)
    expect(byKey.get(`${ack.identityId} ${ack.key}`), ack.key).toBe(ack.receipt.resource.id);
  const changes = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM changes');
  expect(Number(changes.rows[0]!.n)).toBe(acknowledged.length + 1 + WRITERS);

  await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0, 120_000);
  const projections = await checkProjections(stack.pool, stack.config.ASTRO_ENTRY, stack.config.PROJECTIONS_DIR);
  expect(projections.missing).toEqual([]);
  expect(projections.stale).toEqual([]);
  expect(projections.extra).toEqual([]);

  // Search catches up by itself as well, on its own session, after either restart: every record has its document.
  await eventually(async () => (await readSearchDocumentsLag(stack.pool)).pending === 0, 120_000);
  const unindexed = await stack.pool.query(
    `SELECT r.id FROM (SELECT id FROM problems UNION ALL SELECT id FROM solutions) r
      WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = r.id)`,
  );
  expect(unindexed.rows).toEqual([]);
}

describe('Redis restarted under load', () => {
  it('answers 503 + Retry-After while Redis is away, recovers by itself and loses nothing acknowledged', async () => {
    const run = await underLoad(async () => {
      const downAt = Date.now();
      await stack.redis.kill(); // no persistence: the queues come back empty
      await sleep(DOWN_MS);
      await stack.redis.start();
      return { downAt, upAt: Date.now() };
    }, SEED);
    acknowledged.push(...run.acks);
    const report = summarise('redis', run);

    expectOnlyRetryableRefusals(run.writes, ['200', '201', '503'], HANG_MS);
    // Reads need no Redis (the rate limiter lets requests pass while it is away).
    expectOnlyRetryableRefusals(run.reads, ['200'], HANG_MS);
    expect(report.writes_refused_while_down).toBeGreaterThan(0);
    expect(Number.isFinite(report.first_write_acknowledged_after_restart_ms)).toBe(true);
    expectCommitEventsAfter(run);
    expect(stack.worker.starts).toBe(1);
    expect(stack.worker.running).toBe(true);
    await expectNothingLost();
  });
});

describe('PostgreSQL restarted under load', () => {
  it('answers 503 + Retry-After while PostgreSQL is away, recovers by itself and loses nothing acknowledged', async () => {
    const run = await underLoad(async () => {
      const downAt = Date.now();
      await stack.postgres.stop('immediate'); // a crash to every client: WAL recovery at start
      await sleep(DOWN_MS);
      await stack.postgres.start();
      return { downAt, upAt: Date.now() };
    }, SEED + 100);
    acknowledged.push(...run.acks);
    const report = summarise('postgres', run);

    expectOnlyRetryableRefusals(run.writes, ['200', '201', '503'], HANG_MS);
    // Static projections are files; the reads that need the database may be refused.
    expectOnlyRetryableRefusals(run.reads, ['200', '503'], HANG_MS);
    expect(report.writes_refused_while_down).toBeGreaterThan(0);
    expect(run.reads.answers.some((a) => a.status === 503 && a.at >= run.downAt && a.at < run.upAt)).toBe(true);
    expect(Number.isFinite(report.first_write_acknowledged_after_restart_ms)).toBe(true);
    expectCommitEventsAfter(run);
    expect(stack.worker.starts).toBe(1);
    expect(stack.worker.running).toBe(true);
    await expectNothingLost();
  });
});
