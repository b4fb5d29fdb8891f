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
