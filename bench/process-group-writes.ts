/**
 * Writes through nginx with the service as separate processes, as a
 * deployment over several machines runs it: two API processes, two commit
 * workers and two render workers, against one of each measured in the same
 * run on the same database, queue prefix and projections folder. Both get
 * the same closed loop of create_problem writes (a write counts when its
 * committed receipt arrives) and then the time for the renders to catch up.
 *
 * On a machine with few cores, more processes mostly share the same cores:
 * the figure says what the extra processes cost or bring here, not what more
 * machines would.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { admit } from '../test/helpers/client.ts';
import { startProcessGroup, type GroupSize } from '../test/helpers/process-group.ts';
import { runClient } from './lib/child.ts';
import type { LoopResult } from './lib/closed-loop.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';
import { rendersCaughtUp } from './lib/wait.ts';

const CONCURRENCY = 16;
const SECONDS = 10;
const MAX_WRITES = 100_000;
const DRAIN_MS = 60_000;

interface GroupRun {
  receiptsPerSecond: number;
  committedAndRenderedPerSecond: number;
  completed: number;
  failed: Record<string, number>;
  latencyMs: ReturnType<typeof summarize>;
  drainSeconds: number | null;
}

export const processGroupWrites: Bench = {
  name: 'process-group-writes',
  title: 'writes/s through nginx with two API processes, two commit workers and two render workers vs one of each',
  budgetSeconds: 240,
  async run(ctx) {
    const stack = await ctx.startStack({}, { worker: false });
    const env: Record<string, string> = {
      DATABASE_URL: stack.config.DATABASE_URL,
      REDIS_URL: stack.config.REDIS_URL!,
      QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
      PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
      LOG_LEVEL: 'info',
      PUBLIC_ORIGIN: stack.config.PUBLIC_ORIGIN,
      WORKER_CONCURRENCY: String(CONCURRENCY),
      READ_RATE_LIMIT: String(stack.config.READ_RATE_LIMIT),
      WRITE_RATE_LIMIT: String(stack.config.WRITE_RATE_LIMIT),
      ADMISSION_RATE_LIMIT: String(stack.config.ADMISSION_RATE_LIMIT),
    };
    const logs = path.dirname(ctx.tempFile('x'));

    const measure = async (label: string, size: GroupSize): Promise<GroupRun> => {
      const group = await startProcessGroup(env, size, logs, path.resolve(stack.config.ASTRO_CLIENT_DIR));
      try {
        const agent = await admit(group.base);
        const run = randomBytes(4).toString('hex');
        const started = performance.now();
        const result = await runClient<LoopResult>(
          'write-load',
          { concurrency: CONCURRENCY, seconds: SECONDS, max: MAX_WRITES, base: group.base, secret: agent.secret, run },
          (SECONDS + 30) * 1000,
        );
        if (result.completed === 0)
          throw new Error(`${label}: no write was committed: ${JSON.stringify(result.failed)}`);
        const drainSeconds = await rendersCaughtUp(stack.pool, DRAIN_MS).catch(() => null);
        const latency = summarize(result.latenciesMs);
        const out: GroupRun = {
          receiptsPerSecond: result.perSecond,
          committedAndRenderedPerSecond:
            drainSeconds === null ? Number.NaN : result.completed / ((performance.now() - started) / 1000),
          completed: result.completed,
          failed: result.failed,
          latencyMs: latency,
          drainSeconds,
        };
        ctx.log(
          `${label.padEnd(12)} ${round(out.receiptsPerSecond, 1)} receipts/s (${result.completed} ok, failures ${JSON.stringify(result.failed)}), p50 ${round(latency.p50)} ms, p99 ${round(latency.p99)} ms; ` +
            (drainSeconds === null
              ? `renders not caught up ${DRAIN_MS / 1000} s later`
              : `renders caught up ${round(drainSeconds, 1)} s later: ${round(out.committedAndRenderedPerSecond, 1)} committed-and-rendered/s`),
        );
        if (group.crashes().length) throw new Error(`${label}: ${group.crashes().join('\n')}`);
        return out;
      } finally {
        await group.close();
      }
    };

    ctx.log(`${CONCURRENCY} writers through nginx for ${SECONDS} s per layout; worker concurrency ${CONCURRENCY}`);
    const one = await measure('one of each', { apis: 1, commitWorkers: 1, renderWorkers: 1 });
    const two = await measure('two of each', { apis: 2, commitWorkers: 2, renderWorkers: 2 });
    const oneLabel = 'one API, one commit worker, one render worker';
    return {
      comparisons: [
        {
          metric: 'committed writes/s (receipts), two of each',
          unit: '/s',
          value: two.receiptsPerSecond,
          baselineLabel: oneLabel,
          baseline: one.receiptsPerSecond,
          better: 'higher',
        },
        {
          metric: 'committed-and-rendered writes/s, two of each',
          unit: '/s',
          value: two.committedAndRenderedPerSecond,
          baselineLabel: oneLabel,
          baseline: one.committedAndRenderedPerSecond,
          better: 'higher',
        },
        {
          metric: 'receipt latency p50, two of each',
          unit: 'ms',
          value: two.latencyMs.p50,
          baselineLabel: oneLabel,
          baseline: one.latencyMs.p50,
          better: 'lower',
        },
        {
          metric: 'receipt latency p99, two of each',
          unit: 'ms',
          value: two.latencyMs.p99,
          baselineLabel: oneLabel,
          baseline: one.latencyMs.p99,
          better: 'lower',
        },
      ],
      details: {
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        cores: ctx.machine,
        oneOfEach: { ...one, latencyMs: roundAll(one.latencyMs) },
        twoOfEach: { ...two, latencyMs: roundAll(two.latencyMs) },
      },
      notes: [
        "Both layouts run one after the other on the same database; the second starts on the first one's rows.",
        'Every process is its own `node api/server.ts` or `node worker/main.ts` (WORKER_ROLES=commit|render); the load generator is its own process.',
      ],
    };
  },
};
