import { describe, expect, it } from 'vitest';
import { percentile, summarize } from '../../bench/lib/stats.ts';

describe('bench statistics', () => {
  const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];

  it.each([
    [50, 5],
    [90, 9],
    [99, 10],
    [100, 10],
    [0, 1],
    [10, 1],
    [11, 2],
  ])('takes the %i th percentile by nearest rank: %i', (p, expected) => {
    expect(percentile(samples, p)).toBe(expected);
  });

  it('summarizes count, p50, p95, p99, max and mean, and leaves no samples as NaN', () => {
    expect(summarize(samples)).toEqual({ count: 10, p50: 5, p95: 10, p99: 10, max: 10, mean: 5.5 });
    expect(summarize([]).p50).toBeNaN();
  });
});
