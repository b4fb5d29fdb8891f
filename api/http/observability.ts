/**
 * One log line and one metric sample per request, labelled by route pattern.
 * Nothing from headers or bodies is logged: secrets cannot leak this way.
 */
import type { Queue } from 'bullmq';
import type { Context, MiddlewareHandler } from 'hono';
import { infoLineWriter, type Logger } from '../../infra/logger.ts';
import type { ApiMetrics } from '../../infra/metrics.ts';
import { readRenderState } from '../../db/queries/changes.ts';
import { readChampionState, readSearchDocumentsLag } from '../../db/queries/search.ts';
import type { AppDeps, AppEnv, RecordRequest } from '../app-deps.ts';

/**
 * Label values must not grow with what clients send: a method outside the
 * ones the API serves is `other` (route labels are registered patterns and
 * statuses the API's own, so both are bounded already).
 */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
export const methodLabel = (method: string) => (KNOWN_METHODS.has(method) ? method : 'other');

/**
 * The one place a request is logged and counted, for the app's middleware
 * and the pre-router read path (api/reads/fast-reads.ts) alike.
 *
 * The request line is written without redaction: its fields are the ones
 * built here (id, method label, route pattern, status, duration), never
 * anything a client sent. The redaction pass cost about 20 µs a line, as
 * much as serving a cached page; pino's own walk over the fields, more than
 * the rest of recording a request, so the line is written by
 * `infoLineWriter` from JSON built once per series (the same bytes; the
 * request id and the duration are the only parts that change). Metric
 * children are kept per label set, so a request does not hash its labels.
 */
export function createRequestRecorder(logger: Logger, metrics: ApiMetrics): RecordRequest {
  const writeLine = infoLineWriter(logger.child({}, { redact: [] }), 'request');
  /** By route, then method and status: a read finds its series without building a key. */
  const series = new Map<string, Map<string, Series>>();
  return function recordRequest(requestId, method, route, status, seconds) {
    let byRoute = series.get(route);
    if (!byRoute) series.set(route, (byRoute = new Map()));
    // The method label, not the method: what clients send must not grow the map (see methodLabel).
    const label = methodLabel(method);
    const key = label + status;
    let s = byRoute.get(key);
    if (!s) {
      const labels = { method: label, route, status: String(status) };
      s = {
        count: metrics.requests.labels(labels),
        time: metrics.latency.labels(labels),
        json: `,"method":${JSON.stringify(label)},"route":${JSON.stringify(route)},"status":${JSON.stringify(labels.status)}`,
      };
      byRoute.set(key, s);
    }
    s.count.inc();
    s.time.observe(seconds);
    // pino's order: the request id (left out when missing, as pino leaves out undefined), the series' fields, the duration.
    const id = requestId === undefined ? '' : `,"requestId":${JSON.stringify(requestId)}`;
    writeLine(`${id}${s.json},"ms":${Math.round(seconds * 1000)}`);
  };
}

interface Series {
  /** The line's method, route and status, as JSON. */
  json: string;
  count: { inc(): void };
  time: { observe(v: number): void };
}

export function observeRequests(record: RecordRequest): MiddlewareHandler<AppEnv> {
  return async function observeRequest(c, next) {
    const started = performance.now();
    await next();
    record(
      c.get('requestId'),
      c.req.method,
      c.req.routePath || 'unmatched',
      c.res.status,
      (performance.now() - started) / 1000,
    );
  };
}

/** `/metrics`: refreshes the gauges that are read at scrape time, then renders the registry. */
export function createMetricsHandler({ metrics, pool: db, queues: byName }: AppDeps) {
  const queues: Queue[] = Object.values(byName);
  return async function serveMetrics(c: Context): Promise<Response> {
    const refreshes: Promise<unknown>[] = queues.map(async (queue) => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
      for (const [state, n] of Object.entries(counts)) metrics.queueDepth.set({ queue: queue.name, state }, n);
    });
    refreshes.push(
      readRenderState(db).then((state) => {
        metrics.lastCommitted.set(Number(state.last_committed));
        metrics.lastRendered.set(Number(state.last_rendered));
        metrics.renderLagChanges.set(state.unrendered);
        metrics.renderLagSeconds.set(state.oldest_unrendered_seconds);
      }),
    );
    refreshes.push(
      readChampionState(db).then((state) => {
        metrics.championsUnfolded.set(state.unfolded);
        metrics.championsLagSeconds.set(state.lagSeconds);
      }),
    );
    refreshes.push(
      readSearchDocumentsLag(db).then((lag) => {
        metrics.searchPending.set(lag.pending);
        metrics.searchPendingSeconds.set(lag.oldestSeconds);
      }),
    );
    // A dependency being away must not hide the metrics that do exist.
    await Promise.allSettled(refreshes);
    return c.body(await metrics.registry.metrics(), 200, {
      'Content-Type': metrics.registry.contentType,
      'Cache-Control': 'no-store',
    });
  };
}
