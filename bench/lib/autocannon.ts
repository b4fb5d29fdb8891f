/** HTTP load with autocannon (a devDependency), run as its own process. */
import { createRequire } from 'node:module';
import { runNodeChild } from './child.ts';

export interface HttpLoad {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}

export interface HttpLoadResult {
  requestsPerSecond: number;
  requests: number;
  seconds: number;
  /** Responses by status code, e.g. { "200": 51234 }. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; mean: number };
}

interface AutocannonJson {
  duration: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number; mean: number };
  requests: { total: number };
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon');

export async function runHttpLoad(load: HttpLoad): Promise<HttpLoadResult> {
  const args = ['-c', String(load.connections), '-d', String(load.seconds), '-j', '-n'];
  for (const [name, value] of Object.entries(load.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(load.url);
  const out = await runNodeChild<AutocannonJson>(AUTOCANNON, args, {}, (load.seconds + 20) * 1000);
  const statuses = Object.fromEntries(Object.entries(out.statusCodeStats).map(([code, s]) => [code, s.count]));
  const responses = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    requestsPerSecond: responses / out.duration,
    requests: responses,
    seconds: out.duration,
    statuses,
    errors: out.errors,
    timeouts: out.timeouts,
    latencyMs: { p50: out.latency.p50, p99: out.latency.p99, mean: out.latency.mean },
  };
}
