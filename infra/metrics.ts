/**
 * Prometheus metrics (prom-client). Each process has its own registry; the
 * API serves it at /metrics, a worker on WORKER_METRICS_PORT. Labels are
 * route patterns and operation names, never ids, so cardinality stays small.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Fine around the one second search may lag by, so a p99 read from the buckets says which side of it it is. */
export const SEARCH_LAG_BUCKETS = [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 5, 10, 30];

export type PhaseTimer = <T>(phase: string, fn: () => Promise<T>) => Promise<T>;

/** Times one phase of a piece of work into a histogram labelled by phase (successes and failures alike). */
export function phaseTimer(histogram: Histogram<'phase'>): PhaseTimer {
  return async function time<T>(phase: string, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      histogram.observe({ phase }, (performance.now() - started) / 1000);
    }
  };
}

export function createApiMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ak_api_' });
  return {
    registry,
    requests: new Counter({
      name: 'ak_http_requests_total',
      help: 'HTTP requests by route pattern, method and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'ak_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern, method and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'ak_queue_jobs',
      help: 'Jobs per queue and state, read at scrape time.',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
    lastCommitted: new Gauge({
      name: 'ak_last_committed_cursor',
      help: 'Highest committed change cursor.',
      registers: [registry],
    }),
    lastRendered: new Gauge({
      name: 'ak_last_rendered_cursor',
      help: 'Highest change cursor whose projections are rendered.',
      registers: [registry],
    }),
    renderLagChanges: new Gauge({
      name: 'ak_render_lag_changes',
      help: 'Committed changes not rendered yet.',
      registers: [registry],
    }),
    renderLagSeconds: new Gauge({
      name: 'ak_render_lag_seconds',
      help: 'Age of the oldest unrendered change (0 when none).',
      registers: [registry],
    }),
    championsUnfolded: new Gauge({
      name: 'ak_search_champions_unfolded_documents',
      help: "Search documents changed since the champion lists' last compaction (read directly by every keyword search until folded in).",
      registers: [registry],
    }),
    championsLagSeconds: new Gauge({
      name: 'ak_search_champions_lag_seconds',
      help: 'Once a champion-list compaction is due, how long the oldest waiting document has waited; 0 before.',
      registers: [registry],
    }),
    searchPending: new Gauge({
      name: 'ak_search_documents_pending',
      help: 'Committed changes not yet in the search documents (the catch-up takes them in batches).',
      registers: [registry],
    }),
    searchPendingSeconds: new Gauge({
      name: 'ak_search_documents_pending_seconds',
      help: 'How long the oldest change not yet in the search documents has waited (0 when none).',
      registers: [registry],
    }),
    writePhase: new Histogram({
      name: 'ak_write_phase_seconds',
      help: 'Where a write spends its time in the API: auth, rate_limit, validate, queue_add, commit_wait (queued until the result is known).',
      labelNames: ['phase'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}
export type ApiMetrics = ReturnType<typeof createApiMetrics>;

export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ak_worker_' });
  return {
    registry,
    commitLatency: new Histogram({
      name: 'ak_commit_duration_seconds',
      help: 'Commit transaction latency by operation and result.',
      labelNames: ['operation', 'result'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    renderLatency: new Histogram({
      name: 'ak_render_pass_duration_seconds',
      help: 'Latency of one render pass over pending changes.',
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    commitPhase: new Histogram({
      name: 'ak_commit_phase_seconds',
      help: 'Where a commit job spends its time in the worker: pickup (queued until a worker starts it), transaction, render_enqueue; and render (commit until its projections are written).',
      labelNames: ['phase'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    searchLag: new Histogram({
      name: 'ak_search_documents_lag_seconds',
      help: 'For each change the search catch-up indexed: from its commit noting it until the catch-up that indexed it committed.',
      buckets: SEARCH_LAG_BUCKETS,
      registers: [registry],
    }),
    renderedFiles: new Counter({
      name: 'ak_rendered_files_total',
      help: 'Projection files by outcome (written, unchanged, removed).',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
