import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { histogramQuantiles } from '../../bench/lib/phases.ts';

/** A /metrics text of one histogram holding `seconds`, as a worker exports it. */
async function exported(seconds: number[]): Promise<string> {
  const registry = new Registry();
  const lag = new Histogram({ name: 'lag_seconds', help: 'h', buckets: [0.1, 0.5, 1, 2], registers: [registry] });
  for (const s of seconds) lag.observe(s);
  return registry.metrics();
}

describe('histogram quantiles of a stretch of load', () => {
  it('count only what was observed between the two readings, linear within the bucket a quantile falls in', async () => {
    const before = await exported([5, 5, 5]);
    // The same three slow observations, then 100 new ones: 50 in (0, 0.1], 49 in (0.5, 1], 1 in (1, 2].
    const after = await exported([5, 5, 5, ...Array(50).fill(0.05), ...Array(49).fill(0.7), 1.5]);
    const { count, quantiles } = histogramQuantiles(after, before, 'lag_seconds', [0.5, 0.99, 1]);
    expect(count).toBe(100);
    expect(quantiles[0]).toBeCloseTo(0.1);
    expect(quantiles[1]).toBeCloseTo(1);
    expect(quantiles[2]).toBeCloseTo(2);
  });

  it('give the highest finite bound for a quantile past it, and NaN when nothing was observed', async () => {
    const none = await exported([]);
    expect(histogramQuantiles(await exported([9]), none, 'lag_seconds', [0.5]).quantiles).toEqual([2]);
    expect(histogramQuantiles(none, none, 'lag_seconds', [0.5]).quantiles).toEqual([Number.NaN]);
  });
});
