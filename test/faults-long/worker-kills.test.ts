/**
 * 1,000 writes while the worker process is SIGKILLed at random moments and
 * started again. Clients retry 503s with the same Idempotency-Key, as the
 * contract tells them to. Afterwards every acknowledged write is in the
 * database exactly once, every projection has caught up, and so has search:
 * one document per record, each what a fresh refresh would write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { readSearchDocumentsLag } from '../../db/queries/search.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { admit, eventually, type Agent } from '../helpers/client.ts';
import { startFaultStack, type FaultStack } from '../helpers/fault-stack.ts';
import { checkProjections } from '../helpers/projection-check.ts';
import { AnswerLog, expectOnlyRetryableRefusals } from '../helpers/retrying-client.ts';
import { checkAcknowledged, runAgent, seededRandom } from '../helpers/workload.ts';

const WRITES = 1000;
const CLIENTS = 12;
const MAX_KILLS = 60;
const COMMIT_TIMEOUT_MS = 5000;
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);

let stack: FaultStack;
let agents: Agent[];

beforeAll(async () => {
  stack = await startFaultStack({ COMMIT_TIMEOUT_MS: String(COMMIT_TIMEOUT_MS), RETRY_AFTER_SECONDS: '1' });
  agents = [];
  for (let i = 0; i < CLIENTS; i++) agents.push(await admit(stack.base));
});
afterAll(() => stack?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface KillRecord {
  at: number;
  /** Whether the worker was killed while still starting (before it logged "worker started"). */
  duringStart: boolean;
}

/**
 * SIGKILLs the worker at random moments until `done()`: mid-commit,
 * mid-render, and now and then while it is still starting (during its
 * catch-up render). Leaves one worker running.
 */
async function killRepeatedly(done: () => boolean, random: () => number): Promise<KillRecord[]> {
  const kills: KillRecord[] = [];
  const pause = async (ms: number) => {
    for (const until = Date.now() + ms; Date.now() < until && !done(); ) await sleep(20);
  };
  while (!done() && kills.length < MAX_KILLS) {
    await pause(200 + random() * 1300);
    if (done()) break;
    kills.push({ at: Date.now(), duringStart: false });
    await stack.worker.kill();
    await sleep(random() * 300);
    if (random() < 0.25 && kills.length < MAX_KILLS) {
      const starting = stack.worker.start().catch(() => {});
      await sleep(random() * 1500);
      if (stack.worker.running) {
        kills.push({ at: Date.now(), duringStart: true });
        await stack.worker.kill();
      }
      await starting;
    }
    await stack.worker.start();
  }
  return kills;
}

describe('1,000 writes while the worker is SIGKILLed repeatedly', () => {
  it('keeps every acknowledged write exactly once and brings every projection up to date', async () => {
    const log = new AnswerLog();
    const budget = { left: WRITES };
    const random = seededRandom(SEED);
    const started = Date.now();
    let loadDone = false;
    const load = Promise.all(
      agents.map((agent, i) =>
        runAgent(stack.base, agent, log, {
          budget,
          seed: SEED + i + 1,
          deadline: Date.now() + 10 * 60_000,
          requestTimeoutMs: COMMIT_TIMEOUT_MS + 15_000,
          aborted: () => stack.abortReason(),
        }),
      ),
    ).finally(() => {
      loadDone = true;
    });
    const killer = killRepeatedly(() => loadDone, random);
    const acks = (await load).flat();
    const kills = await killer;
    const loadMs = Date.now() - started;

    // The service only ever acknowledged or asked to retry, in bounded time; no worker died by itself.
    const statuses = log.byStatus();
    expect(statuses['201']).toBeGreaterThan(0);
    expectOnlyRetryableRefusals(log, ['200', '201', '503'], COMMIT_TIMEOUT_MS + 10_000);
    expect(kills.length).toBeGreaterThanOrEqual(10);
    expect(stack.worker.crashes).toEqual([]);

    // Every acknowledged write exactly once, as its receipt says; nothing else.
    expect(acks).toHaveLength(WRITES);
    const ledger = await checkAcknowledged(stack.pool, acks);
    expect(ledger.problems).toEqual([]);
    const ids = agents.map((a) => a.id);
    const ops = await stack.pool.query<{ identity_id: string; idempotency_key: string; id: string }>(
      `SELECT identity_id, idempotency_key, receipt->'resource'->>'id' AS id FROM operations WHERE identity_id = ANY($1::text[])`,
      [ids],
    );
    expect(ops.rowCount).toBe(WRITES);
    const byKey = new Map(ops.rows.map((r) => [`${r.identity_id} ${r.idempotency_key}`, r.id]));
    for (const ack of acks) expect(byKey.get(`${ack.identityId} ${ack.key}`), ack.key).toBe(ack.receipt.resource.id);
    // No (identity, key) twice. The primary key guarantees it; the record counts above are the
    // check with teeth (one key, one record), this one states the contract.
    const twice = await stack.pool.query(
      'SELECT identity_id, idempotency_key FROM operations GROUP BY identity_id, idempotency_key HAVING count(*) > 1',
    );
    expect(twice.rows).toEqual([]);
    // One change per committed write, plus one per admission.
    const changes = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM changes');
    expect(Number(changes.rows[0]!.n)).toBe(WRITES + CLIENTS);

    // Every change rendered, every projection present and current.
    const catchUpStarted = Date.now();
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0, 120_000);
    const catchUpMs = Date.now() - catchUpStarted;
    const projections = await checkProjections(stack.pool, stack.config.ASTRO_ENTRY, stack.config.PROJECTIONS_DIR);
    expect(projections.missing).toEqual([]);
    expect(projections.stale).toEqual([]);
    expect(projections.extra).toEqual([]);

    // The worker's search catch-up, killed mid-batch as often as the rest, leaves nothing out and
    // nothing stale: every record has its document, equal to what refreshing it afresh writes.
    await eventually(async () => (await readSearchDocumentsLag(stack.pool)).pending === 0, 120_000);
    const missing = await stack.pool.query(
      `SELECT r.id FROM (SELECT id FROM problems UNION ALL SELECT id FROM solutions UNION ALL SELECT id FROM discussions) r
        WHERE NOT EXISTS (SELECT 1 FROM search_documents d WHERE d.id = r.id)`,
    );
    expect(missing.rows).toEqual([]);
    const documents = `SELECT id, md5(row(type, family, title, snippet, product, status, text_norm, exact_keys, tsv, worked, partially_worked, did_not_work)::text) AS doc
                         FROM search_documents ORDER BY id`;
    const caughtUp = (await stack.pool.query(documents)).rows;
    // Refreshed afresh in a transaction that is then rolled back: the test changes nothing.
    const client = await stack.pool.connect();
    let fresh: unknown[];
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO search_pending (kind, family)
                          SELECT 'family', id FROM problems UNION ALL SELECT 'discussion', id FROM discussions`);
      await searchDocumentsCaughtUp(client);
      fresh = (await client.query(documents)).rows;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect(caughtUp.length).toBeGreaterThan(WRITES / 2);
    expect(caughtUp).toEqual(fresh);

    const attempts = acks.map((a) => a.attempts);
    const retried = acks
      .filter((a) => a.attempts > 1)
      .map((a) => a.elapsedMs)
      .sort((x, y) => x - y);
    console.log(
      JSON.stringify(
        {
          seed: SEED,
          writes: acks.length,
          kills: kills.length,
          worker_starts: stack.worker.starts,
          kills_during_start: kills.filter((k) => k.duringStart).length,
          load_seconds: Math.round(loadMs / 100) / 10,
          answers: statuses,
          retried_writes: retried.length,
          max_attempts: Math.max(...attempts),
          retried_write_acknowledged_after_ms: {
            median: retried[Math.floor(retried.length / 2)] ?? 0,
            max: retried.at(-1) ?? 0,
          },
          slowest_answer_ms: log.slowest(),
          render_catch_up_ms: catchUpMs,
          projection_files: projections.expected,
          temp_files_left: projections.temp.length,
        },
        null,
        2,
      ),
    );
  });
});
