/**
 * Where a write's time goes, from the phase histograms the API
 * (`ak_write_phase_seconds`) and the worker (`ak_commit_phase_seconds`)
 * export in the Prometheus text format (core/metrics.ts).
 */

export interface PhaseMean {
  count: number;
  meanMs: number;
}

/** Mean per phase of one histogram, read from a /metrics text. */
export function phaseMeans(metricsText: string, metric: string): Record<string, PhaseMean> {
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  const line = new RegExp(`^${metric}_(sum|count)\\{phase="([a-z_]+)"\\} ([0-9.eE+-]+)$`);
  for (const text of metricsText.split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    (m[1] === 'sum' ? sums : counts).set(m[2]!, Number(m[3]));
  }
  const out: Record<string, PhaseMean> = {};
  for (const [phase, count] of counts) {
    if (count > 0) out[phase] = { count, meanMs: ((sums.get(phase) ?? 0) / count) * 1000 };
  }
  return out;
}

/** Subtracts an earlier reading, so a breakdown covers one stretch of load only. */
export function phaseDelta(after: string, before: string, metric: string): Record<string, PhaseMean> {
  const a = phaseMeans(after, metric);
  const b = phaseMeans(before, metric);
  const out: Record<string, PhaseMean> = {};
  for (const [phase, x] of Object.entries(a)) {
    const y = b[phase] ?? { count: 0, meanMs: 0 };
    const count = x.count - y.count;
    if (count > 0) out[phase] = { count, meanMs: (x.meanMs * x.count - y.meanMs * y.count) / count };
  }
  return out;
}

/** Cumulative bucket counts of one unlabelled histogram (`le` → count), read from a /metrics text. */
function bucketCounts(metricsText: string, metric: string): Map<number, number> {
  const line = new RegExp(`^${metric}_bucket\\{le="([^"]+)"\\} ([0-9.eE+-]+)$`);
  const out = new Map<number, number>();
  for (const text of metricsText.split('\n')) {
    const m = line.exec(text);
    if (m)
      out.set(
        m[1] === '+Inf' ? Infinity : Number(m[1]),
        (out.get(m[1] === '+Inf' ? Infinity : Number(m[1])) ?? 0) + Number(m[2]),
      );
  }
  return out;
}

/**
 * Quantiles of a histogram over one stretch (the `after` reading minus `before`), as Prometheus's
 * histogram_quantile reads them: linear within the bucket the quantile falls in; a quantile in the
 * last (+Inf) bucket is given as the highest finite bound.
 */
export function histogramQuantiles(
  after: string,
  before: string,
  metric: string,
  qs: number[],
): { count: number; quantiles: number[] } {
  const a = bucketCounts(after, metric);
  const b = bucketCounts(before, metric);
  const bounds = [...a.keys()].sort((x, y) => x - y);
  const cumulative = bounds.map((le) => (a.get(le) ?? 0) - (b.get(le) ?? 0));
  const count = cumulative.at(-1) ?? 0;
  const quantiles = qs.map((q) => {
    if (count === 0) return Number.NaN;
    const rank = q * count;
    const i = cumulative.findIndex((c) => c >= rank);
    const upper = bounds[i]!;
    if (!Number.isFinite(upper)) return bounds[i - 1] ?? Number.NaN;
    const lower = i === 0 ? 0 : bounds[i - 1]!;
    const below = i === 0 ? 0 : cumulative[i - 1]!;
    const inBucket = cumulative[i]! - below;
    return inBucket === 0 ? upper : lower + (upper - lower) * ((rank - below) / inBucket);
  });
  return { count, quantiles };
}
