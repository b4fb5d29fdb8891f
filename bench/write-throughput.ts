/**
 * Writes: sustained committed-and-rendered create_problem writes/s and receipt
 * latency through the whole path (HTTP, auth, rate limit, idempotency lookup,
 * queue, worker commit, completion event, receipt; the worker renders
 * meanwhile), with 16 writers, against floors measured in the same run:
 * pgbench (16 clients, one transaction of the same four INSERTs into plain
 * tables: no triggers, no functions of ours) for throughput, printed beside
 * the same pgbench into the service's own tables; and the same transaction
 * from this process, 16 at a time, for latency. Prints where a write's time
 * and CPU go, phase by phase, and how far search lagged behind the commits.
 *
 * The workers run as their own processes (`node worker/main.ts`, one with
 * WORKER_ROLES=commit, one with WORKER_ROLES=render); the API runs in this process.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readFile, writeFile } from 'node:fs/promises';
import { countUnrenderedChanges } from '../db/queries/changes.ts';
import { searchDocumentsCaughtUp } from '../database-search/search-catch-up.ts';
import { compactSearchChampions } from '../db/queries/search.ts';
import { admit } from '../test/helpers/client.ts';
import { freePort } from '../test/helpers/ports.ts';
import { createWorkerProcess } from '../test/helpers/worker-process.ts';
import { runClient } from './lib/child.ts';
import { serviceGroups, startCpuSampler } from './lib/cpu.ts';
import { commitDirect } from './lib/direct-commit.ts';
import { freshFolder } from './lib/fresh-folder.ts';
import { runClosedLoop, type LoopResult } from './lib/closed-loop.ts';
import { histogramQuantiles, phaseDelta, type PhaseMean } from './lib/phases.ts';
import { problemContent } from './lib/seed.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';
import { rendersCaughtUp, searchCaughtUp } from './lib/wait.ts';

const CONCURRENCY = 16;
const SECONDS = 10;
const MAX_WRITES = 100_000;
/** How long to wait for the renders to catch up after the load; the bench reports what is left. */
const DRAIN_MS = 40_000;
const sqlFile = (name: string) => fileURLToPath(new URL(`./sql/${name}`, import.meta.url));
/** The four INSERTs into the service's own tables, triggers and all. */
const OWN_SCHEMA_SCRIPT = sqlFile('create-problem.pgbench.sql');

/** The floor: the same script with each INSERT into its plain copy (sql/plain-tables.sql), written to `file`. */
async function writePlainScript(file: string): Promise<string> {
  const script = await readFile(OWN_SCHEMA_SCRIPT, 'utf8');
  const plain = script.replace(
    /^INSERT INTO (operations|problems|problem_revisions|changes) /gm,
    'INSERT INTO plain_$1 ',
  );
  if ((plain.match(/^INSERT INTO plain_/gm) ?? []).length !== 4)
    throw new Error('the pgbench script no longer has the four INSERTs the plain floor copies');
  await writeFile(file, plain);
  return file;
}

/** pgbench's tps over `seconds`, 16 clients, the same four INSERTs. */
async function pgbench(
  databaseUrl: string,
  script: string,
  agentId: string,
  seconds: number,
): Promise<{ tps: number; latencyMs: number; transactions: number }> {
  const { stdout } = await promisify(execFile)(
    'pgbench',
    [
      '-n',
      '-c',
      String(CONCURRENCY),
      '-j',
      '2',
      '-T',
      String(seconds),
      '-f',
      script,
      '-D',
      `agent='${agentId}'`,
      databaseUrl,
    ],
    { timeout: (seconds + 30) * 1000 },
  );
  const tps = /tps = ([0-9.]+)/.exec(stdout);
  const latency = /latency average = ([0-9.]+) ms/.exec(stdout);
  const processed = /number of transactions actually processed: ([0-9]+)/.exec(stdout);
  if (!tps || !latency || !processed) throw new Error(`pgbench printed no tps:\n${stdout}`);
  return { tps: Number(tps[1]), latencyMs: Number(latency[1]), transactions: Number(processed[1]) };
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  return res.text();
}

const ms = (p: Record<string, PhaseMean>, phase: string) => p[phase]?.meanMs ?? 0;

/** CPU groups left out of a write's total: other sessions' work, and the bench's own sampler. */
const NOT_OURS = new Set(['other', 'postgres, other databases', 'cpu sampler (this bench)']);

export const writeThroughput: Bench = {
  name: 'write-throughput',
  title:
    "committed-and-rendered writes/s and receipt latency vs pgbench and a direct transaction of the same rows; where a write's time goes",
  budgetSeconds: 150,
  async run(ctx) {
    // The projections in a block group of their own (fresh-folder.ts): file creations cost what they cost, not what the previous run's clean-up left behind.
    const projections = freshFolder(path.dirname(ctx.tempFile('x')), 'projections-');
    const stack = await ctx.startStack(
      { WORKER_CONCURRENCY: String(CONCURRENCY), PROJECTIONS_DIR: projections },
      { worker: false },
    );
    // Commits and renders in their own processes (WORKER_ROLES), as a deployment
    // that cares about write latency runs them: renders are CPU-bound and would
    // hold up the commits' queries on a shared event loop.
    const workerEnv = {
      DATABASE_URL: stack.config.DATABASE_URL,
      REDIS_URL: stack.config.REDIS_URL!,
      QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
      PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
      LOG_LEVEL: 'info',
      // No commit lock any more: one commit in flight per writer.
      WORKER_CONCURRENCY: String(CONCURRENCY),
      // The render worker's priority as the operator sets it (core/config.ts), so a run can compare settings.
      ...(process.env.RENDER_WORKER_NICE ? { RENDER_WORKER_NICE: process.env.RENDER_WORKER_NICE } : {}),
    };
    const metricsUrl: Record<string, string> = {};
    for (const role of ['commit', 'render'] as const) {
      const port = await freePort();
      // BENCH_WORKER_CPU_PROF=<folder>: each worker process writes a V8 CPU profile there when it stops (node --cpu-prof).
      const profile: Record<string, string> = process.env.BENCH_WORKER_CPU_PROF
        ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}` }
        : {};
      const worker = createWorkerProcess(
        { ...workerEnv, ...profile, WORKER_ROLES: role, WORKER_METRICS_PORT: String(port) },
        ctx.tempFile(`worker-${role}.log`),
      );
      ctx.defer(() => worker.stop());
      await worker.start();
      metricsUrl[role] = `http://127.0.0.1:${port}/metrics`;
    }
    const workerMetrics = async () => `${await scrape(metricsUrl.commit!)}\n${await scrape(metricsUrl.render!)}`;

    const agent = await admit(stack.base);
    const run = randomBytes(4).toString('hex');
    const limits = { concurrency: CONCURRENCY, seconds: SECONDS, max: MAX_WRITES };
    ctx.log(
      `${CONCURRENCY} writers, ${SECONDS} s each (at most ${MAX_WRITES} writes); a commit worker process (concurrency ${CONCURRENCY}) and a render worker process`,
    );

    // CPU per write by process, against pgbench's per transaction: what the
    // pipeline spends beyond the floor's four INSERTs, and where.
    // Each pool names its sessions (application_name): the server's CPU is put down to the process it worked for.
    const applications = new Map<number, string>();
    const watchSessions = setInterval(() => {
      stack.pool
        .query<{ pid: number; application_name: string }>(
          'SELECT pid, application_name FROM pg_stat_activity WHERE datname = current_database()',
        )
        .then(
          (r) => {
            for (const row of r.rows) if (row.application_name) applications.set(row.pid, row.application_name);
          },
          () => {},
        );
    }, 200);
    ctx.defer(() => clearInterval(watchSessions));
    const groups = serviceGroups(new URL(stack.config.DATABASE_URL).pathname.slice(1), (pid) => applications.get(pid));
    const perWrite = (cpu: Record<string, number>, writes: number) =>
      Object.fromEntries(
        Object.entries(cpu)
          .filter(([, v]) => v > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, round(v / writes, 2)]),
      );
    const showCpu = (label: string, cpu: Record<string, number>) => {
      const total = Object.entries(cpu)
        .filter(([k]) => !NOT_OURS.has(k))
        .reduce((sum, [, v]) => sum + v, 0);
      ctx.log(
        `${label}: ${round(total, 2)} ms (${Object.entries(cpu)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`,
      );
    };

    // The floors first, so the pipeline's render backlog cannot slow them.
    await stack.pool.query(await readFile(sqlFile('plain-tables.sql'), 'utf8'));
    const floorCpu = startCpuSampler(groups);
    const floor = await pgbench(
      stack.config.DATABASE_URL,
      await writePlainScript(ctx.tempFile('create-problem-plain.pgbench.sql')),
      agent.id,
      SECONDS,
    );
    const floorCpuPerTx = perWrite(floorCpu.stop(), floor.transactions);
    ctx.log(
      `pgbench, plain tables  ${round(floor.tps, 1)} tx/s, latency average ${round(floor.latencyMs)} ms (16 clients, the same 4 INSERTs; no triggers, no functions of ours)`,
    );
    showCpu('  CPU ms per pgbench transaction, plain tables', floorCpuPerTx);
    const ownCpu = startCpuSampler(groups);
    const own = await pgbench(stack.config.DATABASE_URL, OWN_SCHEMA_SCRIPT, agent.id, SECONDS);
    const ownCpuPerTx = perWrite(ownCpu.stop(), own.transactions);
    ctx.log(
      `pgbench, own schema    ${round(own.tps, 1)} tx/s, latency average ${round(own.latencyMs)} ms (the same 4 INSERTs into the service's tables, triggers and all): ${round(own.tps / floor.tps, 2)}× the plain tables`,
    );
    showCpu('  CPU ms per pgbench transaction, own schema', ownCpuPerTx);
    // pgbench's problems are no one's search: their noted changes are dropped, not indexed during the load.
    await stack.pool.query(`DELETE FROM search_pending WHERE family LIKE 'prb\\_pgbench%'`);
    const direct = await runClosedLoop(limits, (i) =>
      commitDirect(stack.pool, agent.id, `bench:${run}-direct-${i}`, problemContent(`${run}-direct`, i)),
    );
    const show = (label: string, r: LoopResult) => {
      const s = summarize(r.latenciesMs);
      ctx.log(
        `${label.padEnd(14)} ${round(r.perSecond, 1)}/s over ${round(r.seconds, 1)} s (${r.completed} ok, failures ${JSON.stringify(r.failed)}), p50 ${round(s.p50)} ms, p99 ${round(s.p99)} ms`,
      );
      return s;
    };
    const directLatency = show('direct tx', direct);
    await rendersCaughtUp(stack.pool, DRAIN_MS);
    await searchDocumentsCaughtUp(stack.pool);
    // The direct transactions' documents are the corpus the load writes into, loaded in bulk: its champion lists are
    // built now, as a bulk load builds them (operations/bulk-load.ts), not by the render worker's first compaction,
    // which would otherwise fall inside the load whenever its 2 s spacing put it there. The compactions the load's own
    // writes cause, and a rebuild they would make due, still run inside it and are counted.
    // Printed with what it would cost each write amortized: a full build comes again once max(a fifth of the documents,
    // 10,000) have been folded in since (db/migrations/000017.sql). The build is one session's statement, so its
    // wall time bounds its CPU (the CPU sampler's quarter-second steps are too coarse for it).
    const championStart = performance.now();
    await compactSearchChampions(stack.pool, 1);
    const championMs = performance.now() - championStart;
    const documents = Number((await stack.pool.query('SELECT count(*) FROM search_documents')).rows[0].count);
    const rebuildEvery = Math.max(0.2 * documents, 10_000);
    ctx.log(
      `champion lists built over ${documents} documents before the load in ${round(championMs)} ms; a build comes again every ${Math.round(rebuildEvery)} folded documents: at most ${round(championMs / rebuildEvery, 4)} ms of CPU per write amortized (not in the figures below)`,
    );

    const apiBefore = await stack.api.metrics.registry.metrics();
    const workerBefore = await workerMetrics();
    const pipelineCpu = startCpuSampler(groups);
    const started = performance.now();
    const pipeline = await runClient<LoopResult>(
      'write-load',
      { ...limits, base: stack.base, secret: agent.secret, run },
      (SECONDS + 30) * 1000,
    );
    const pipelineLatency = show('HTTP write', pipeline);
    if (pipeline.completed === 0) throw new Error(`no write was committed: ${JSON.stringify(pipeline.failed)}`);
    // Renders trail the commits; how far, and how long they take to catch up.
    const backlog = await countUnrenderedChanges(stack.pool);
    const drainSeconds = await rendersCaughtUp(stack.pool, DRAIN_MS).catch(() => null);
    const left = drainSeconds === null ? await countUnrenderedChanges(stack.pool) : 0;
    const renderedPerSecond =
      drainSeconds === null ? Number.NaN : pipeline.completed / ((performance.now() - started) / 1000);
    // The CPU counted includes the search catch-up's, however long after the last render it ends.
    const searchLeft = await searchCaughtUp(stack.pool, DRAIN_MS);
    const pipelineCpuPerWrite = perWrite(pipelineCpu.stop(), pipeline.completed);
    ctx.log(
      drainSeconds === null
        ? `render backlog: ${backlog} changes at the last receipt, ${left} still unrendered ${DRAIN_MS / 1000} s later`
        : `render backlog: ${backlog} changes at the last receipt, cleared ${round(drainSeconds, 1)} s later: ${round(renderedPerSecond, 1)} committed-and-rendered writes/s`,
    );

    const workerAfter = await workerMetrics();
    const api = phaseDelta(await stack.api.metrics.registry.metrics(), apiBefore, 'ak_write_phase_seconds');
    const work = phaseDelta(workerAfter, workerBefore, 'ak_commit_phase_seconds');
    const searchLag = histogramQuantiles(workerAfter, workerBefore, 'ak_search_documents_lag_seconds', [0.5, 0.99]);
    ctx.log(
      `search lag (commit to its search documents, ${searchLag.count} changes): p50 ${round(searchLag.quantiles[0]! * 1000)} ms, p99 ${round(searchLag.quantiles[1]! * 1000)} ms` +
        ` (read from the catch-up's histogram buckets, linear within a bucket); ${searchLeft === 0 ? 'caught up' : `${searchLeft} changes still waiting`} ${DRAIN_MS / 1000} s after the last render at most`,
    );
    // The render request is queued after the receipt is sent, not before: not part of commit_wait.
    const inWorker = ms(work, 'pickup') + ms(work, 'transaction');
    const breakdown = {
      auth: ms(api, 'auth'),
      rate_limit: ms(api, 'rate_limit'),
      validate: ms(api, 'validate'),
      queue_add: ms(api, 'queue_add'),
      worker_pickup: ms(work, 'pickup'),
      transaction: ms(work, 'transaction'),
      render_enqueue: ms(work, 'render_enqueue'),
      completion_event: Math.max(0, ms(api, 'commit_wait') - inWorker),
      render_after_commit: ms(work, 'render'),
    };
    const inApi =
      breakdown.auth + breakdown.rate_limit + breakdown.validate + breakdown.queue_add + ms(api, 'commit_wait');
    ctx.log(
      `where a write's time goes (mean ms per write; receipt mean ${round(summarize(pipeline.latenciesMs).mean)} ms, of which ${round(inApi)} ms inside the API's handler):`,
    );
    ctx.log(
      `  ${Object.entries(breakdown)
        .map(([k, v]) => `${k} ${round(v, 2)}`)
        .join(', ')}`,
    );
    ctx.log('  (no idempotency look-up before queueing any more: the commit claims the key and answers replays;');
    ctx.log(
      "  completion_event = commit_wait in the API minus the worker's pickup and transaction; render_enqueue (after the receipt) and",
    );
    ctx.log('  render_after_commit (commit → its projections written) are not part of the receipt)');
    showCpu('CPU ms per committed-and-rendered write, load to last render', pipelineCpuPerWrite);
    ctx.log(
      "  (postgres: the backends of this run's database; postgres background and redis serve every database on the machine;",
    );
    ctx.log(
      '  "other" is everything else running, other sessions\' work included, and is left out of the total, as is the CPU sampler\'s own time in this process)',
    );

    const directLabel = 'the same transaction direct from Node, 16 at a time';
    return {
      comparisons: [
        {
          metric: 'committed-and-rendered writes/s',
          unit: '/s',
          value: renderedPerSecond,
          baselineLabel: 'pgbench, plain tables, 16 clients, same 4 INSERTs',
          baseline: floor.tps,
          better: 'higher',
        },
        {
          metric: 'committed writes/s (receipts)',
          unit: '/s',
          value: pipeline.perSecond,
          baselineLabel: 'pgbench, plain tables, 16 clients, same 4 INSERTs',
          baseline: floor.tps,
          better: 'higher',
        },
        {
          metric: 'pgbench, own schema',
          unit: 'tx/s',
          value: own.tps,
          baselineLabel: 'pgbench, plain tables',
          baseline: floor.tps,
          better: 'higher',
        },
        {
          metric: 'receipt latency p50',
          unit: 'ms',
          value: pipelineLatency.p50,
          baselineLabel: directLabel,
          baseline: directLatency.p50,
          better: 'lower',
        },
        {
          metric: 'receipt latency p99',
          unit: 'ms',
          value: pipelineLatency.p99,
          baselineLabel: directLabel,
          baseline: directLatency.p99,
          better: 'lower',
        },
      ],
      details: {
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        maxWrites: MAX_WRITES,
        workerConcurrency: stack.config.WORKER_CONCURRENCY,
        pgbench: floor,
        pgbenchOwnSchema: own,
        searchLagSeconds: {
          changes: searchLag.count,
          p50: round(searchLag.quantiles[0]!, 3),
          p99: round(searchLag.quantiles[1]!, 3),
          leftAfterWait: searchLeft,
        },
        pipeline: {
          completed: pipeline.completed,
          failed: pipeline.failed,
          seconds: round(pipeline.seconds),
          perSecond: round(pipeline.perSecond),
          latencyMs: roundAll(pipelineLatency),
        },
        direct: {
          completed: direct.completed,
          failed: direct.failed,
          seconds: round(direct.seconds),
          perSecond: round(direct.perSecond),
          latencyMs: roundAll(directLatency),
        },
        breakdownMs: roundAll(breakdown),
        cpuMsPerWrite: pipelineCpuPerWrite,
        cpuMsPerPgbenchTransaction: floorCpuPerTx,
        cpuMsPerPgbenchTransactionOwnSchema: ownCpuPerTx,
        phases: { api, worker: work },
        renderBacklogAtLastReceipt: backlog,
        renderBacklogClearedSeconds: drainSeconds === null ? null : round(drainSeconds),
        renderBacklogLeftAfterWait: left,
      },
      notes: [
        ...Object.entries(pipeline.failed).map(([why, n]) => `${n} HTTP writes failed: ${why}`),
        'The API and the direct transactions share this process; the commit worker, the render worker and the HTTP client run in their own.',
        'committed-and-rendered: writes whose projections were written, over the time from the first write to the last render.',
      ],
    };
  },
};
