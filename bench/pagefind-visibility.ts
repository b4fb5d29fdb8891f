/**
 * Write → visible in the static search: after a new problem's receipt (201),
 * how long until Pagefind's own search code, loading the published index over
 * the API, finds the problem's unique word. The index is rebuilt in batches
 * (SEARCH_INDEX_DELAY_MS, 1 s by default, so that is the floor by design);
 * the baseline is one direct rebuild and publish of the same index.
 */
import { randomBytes } from 'node:crypto';
import { searchPublished } from '../test/helpers/pagefind.ts';
import { admit, send } from '../test/helpers/client.ts';
import { rebuildSearchIndex } from '../static-search/tiers.ts';
import { problemContent } from './lib/seed.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';

const WRITES = 12;
const TIMEOUT_MS = 20_000;

export const pagefindVisibility: Bench = {
  name: 'pagefind-visibility',
  title:
    'write → visible in the static search (Pagefind): receipt to the word being found, vs one direct index rebuild',
  budgetSeconds: 120,
  async run(ctx) {
    const stack = await ctx.startStack();
    const agent = await admit(stack.base);
    const run = randomBytes(3).toString('hex');
    const latencies: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const word = `zqv${run}x${i}`;
      const body = { ...problemContent(run, i), title: `Pagefind bench ${word} watcher limit` };
      const created = await send(stack.base, agent, 'POST', '/api/problems', body);
      if (created.status !== 201) throw new Error(`the write answered ${created.status}`);
      const receiptAt = performance.now();
      for (;;) {
        const found = await searchPublished(stack.base, stack.config.PROJECTIONS_DIR, word).catch(() => []);
        if (found.some((url) => url.includes(created.body.resource.id))) break;
        if (performance.now() - receiptAt > TIMEOUT_MS)
          throw new Error(`write ${i} not searchable after ${TIMEOUT_MS} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      latencies.push(performance.now() - receiptAt);
    }
    const lag = summarize(latencies);
    const direct: number[] = [];
    for (let i = 0; i < 5; i++) direct.push((await rebuildSearchIndex(stack.config.PROJECTIONS_DIR)).ms);
    const floor = summarize(direct);
    ctx.log(
      `receipt → searchable: p50 ${round(lag.p50)} ms, p99 ${round(lag.p99)} ms over ${lag.count} writes; direct rebuild p50 ${round(floor.p50)} ms`,
    );
    const baselineLabel = 'one direct index rebuild and publish';
    return {
      comparisons: [
        {
          metric: 'receipt → searchable, p50',
          unit: 'ms',
          value: lag.p50,
          baselineLabel,
          baseline: floor.p50,
          better: 'lower',
        },
        {
          metric: 'receipt → searchable, max',
          unit: 'ms',
          value: lag.max,
          baselineLabel,
          baseline: floor.p50,
          better: 'lower',
        },
      ],
      details: {
        writes: WRITES,
        delayMs: stack.config.SEARCH_INDEX_DELAY_MS,
        latencyMs: roundAll(lag),
        directRebuildMs: roundAll(floor),
      },
      notes: [
        `Re-indexing is batched with a ${stack.config.SEARCH_INDEX_DELAY_MS} ms delay, so a burst of writes costs one rebuild; that delay is the floor of this latency.`,
      ],
    };
  },
};
