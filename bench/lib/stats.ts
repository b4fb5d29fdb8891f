/** Percentiles and rates over recorded samples. */

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sum = samples.reduce((a, b) => a + b, 0);
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? Math.max(...samples) : Number.NaN,
    mean: samples.length ? sum / samples.length : Number.NaN,
  };
}

/** Rounds for printing and JSON. */
export const round = (n: number, digits = 2): number => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

/** `round` on every number-valued field. */
export function roundAll<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v])) as T;
}
