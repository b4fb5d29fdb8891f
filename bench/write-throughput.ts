/**
 * Writes: receipt latency and sustained committed writes/s through the whole
 * path (HTTP, validation, auth, operation log, queue, worker commit, receipt;
 * the worker also renders meanwhile), against the floor: the same rows
 * INSERTed directly from the API process, at the same concurrency.
 */
import { randomBytes } from 'node:crypto';
import { countUnrenderedChanges } from '../db/queries/changes.ts';
import { admit } from '../test/helpers/client.ts';
import { runClient } from './lib/child.ts';
import { runClosedLoop, type LoopResult } from './lib/closed-loop.ts';
import { insertProblemDirect, problemContent } from './lib/seed.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';
import { rendersCaughtUp } from './lib/wait.ts';

const CONCURRENCY = 16;
const SECONDS = 10;
const MAX_WRITES = 100_000;
/** How long to wait for the renders to catch up after the load; the bench reports what is left. */
const DRAIN_MS = 25_000;

export const writeThroughput: Bench = {
  name: 'write-throughput',
  title: 'write receipt latency and committed writes/s vs a direct INSERT of the same rows from the API process',
  budgetSeconds: 60,
  async run(ctx) {
    const stack = await ctx.startStack();
    const agent = await admit(stack.base);
    const run = randomBytes(4).toString('hex');
    const limits = { concurrency: CONCURRENCY, seconds: SECONDS, max: MAX_WRITES };
    ctx.log(`${CONCURRENCY} writers, ${SECONDS} s each (at most ${MAX_WRITES} writes); worker concurrency ${stack.config.WORKER_CONCURRENCY}`);

    // The baseline first, so the pipeline's render backlog cannot slow it.
    const direct = await runClosedLoop(limits, async (i) => {
      await insertProblemDirect(stack.pool, agent.id, problemContent(`${run}-direct`, i));
    });
    const show = (label: string, r: LoopResult) => {
      const s = summarize(r.latenciesMs);
      ctx.log(`${label.padEnd(14)} ${round(r.perSecond, 1)}/s over ${round(r.seconds, 1)} s (${r.completed} ok, failures ${JSON.stringify(r.failed)}), p50 ${round(s.p50)} ms, p99 ${round(s.p99)} ms`);
      return s;
    };
    const directLatency = show('direct INSERT', direct);

    const pipeline = await runClient<LoopResult>('write-load', { ...limits, base: stack.base, secret: agent.secret, run }, (SECONDS + 30) * 1000);
    const pipelineLatency = show('HTTP write', pipeline);
    if (pipeline.completed === 0) throw new Error(`no write was committed: ${JSON.stringify(pipeline.failed)}`);
    // Renders trail the commits; how far, and how long they take to catch up.
    const backlog = await countUnrenderedChanges(stack.pool);
    const drainSeconds = await rendersCaughtUp(stack.pool, DRAIN_MS).catch(() => null);
    const left = drainSeconds === null ? await countUnrenderedChanges(stack.pool) : 0;
    ctx.log(drainSeconds === null
      ? `render backlog: ${backlog} changes at the last receipt, ${left} still unrendered ${DRAIN_MS / 1000} s later`
      : `render backlog: ${backlog} changes at the last receipt, cleared ${round(drainSeconds, 1)} s later`);

    const baselineLabel = 'direct INSERT, same rows';
    return {
      comparisons: [
        { metric: 'committed writes/s', unit: '/s', value: pipeline.perSecond, baselineLabel, baseline: direct.perSecond, better: 'higher' },
        { metric: 'receipt latency p50', unit: 'ms', value: pipelineLatency.p50, baselineLabel, baseline: directLatency.p50, better: 'lower' },
        { metric: 'receipt latency p99', unit: 'ms', value: pipelineLatency.p99, baselineLabel, baseline: directLatency.p99, better: 'lower' },
      ],
      details: {
        concurrency: CONCURRENCY, seconds: SECONDS, maxWrites: MAX_WRITES, workerConcurrency: stack.config.WORKER_CONCURRENCY,
        pipeline: { completed: pipeline.completed, failed: pipeline.failed, seconds: round(pipeline.seconds), perSecond: round(pipeline.perSecond), latencyMs: roundAll(pipelineLatency) },
        direct: { completed: direct.completed, failed: direct.failed, seconds: round(direct.seconds), perSecond: round(direct.perSecond), latencyMs: roundAll(directLatency) },
        renderBacklogAtLastReceipt: backlog,
        renderBacklogClearedSeconds: drainSeconds === null ? null : round(drainSeconds),
        renderBacklogLeftAfterWait: left,
      },
      notes: [
        ...Object.entries(pipeline.failed).map(([why, n]) => `${n} HTTP writes failed: ${why}`),
        'API, worker and the direct INSERTs share one process; the HTTP client runs in its own.',
        'The direct INSERT writes the problem and revision rows only: no operation log, change row, queue, receipt or render.',
      ],
    };
  },
};
