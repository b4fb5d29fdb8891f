/**
 * HTTP load with wrk (Debian's `wrk`): a C load generator that does not cap
 * nginx the way one autocannon process does. A Lua script counts answers by
 * status, so a bench can tell 200s from 304s and 429s.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

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
  latencyMs: { p50: number; p99: number; mean: number };
}

const COUNT_STATUSES = `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(total) do table.insert(parts, string.format('"%d":%d', status, n)) end
  io.write(string.format('WRK_RESULT {"statuses":{%s},"p50":%f,"p99":%f,"mean":%f,"requests":%d,"seconds":%f,"errors":%d}\\n',
    table.concat(parts, ","), latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.mean / 1000,
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

export const WRK_BIN = process.env.WRK_BIN ?? 'wrk';

/** Runs wrk (`threads` threads, one unless told) and reads the Lua script's result line. */
export async function runWrk(load: HttpLoad & { threads?: number }, scriptFile: string): Promise<HttpLoadResult> {
  await writeFile(scriptFile, COUNT_STATUSES);
  const args = [
    '-t',
    String(load.threads ?? 1),
    '-c',
    String(load.connections),
    '-d',
    `${load.seconds}s`,
    '-s',
    scriptFile,
  ];
  for (const [name, value] of Object.entries(load.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(load.url);
  const { stdout } = await promisify(execFile)(WRK_BIN, args, { timeout: (load.seconds + 20) * 1000 });
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const out = JSON.parse(line.slice('WRK_RESULT '.length)) as {
    statuses: Record<string, number>;
    p50: number;
    p99: number;
    mean: number;
    requests: number;
    seconds: number;
    errors: number;
  };
  return {
    requestsPerSecond: out.requests / out.seconds,
    requests: out.requests,
    seconds: out.seconds,
    statuses: out.statuses,
    errors: out.errors,
    latencyMs: { p50: out.p50, p99: out.p99, mean: out.mean },
  };
}

/**
 * Several runs of one load as one: requests, statuses and errors summed over
 * their seconds; p50 the median of the runs' p50s, p99 the worst run's
 * (percentiles of separate runs cannot be merged exactly).
 */
export function combineRuns(runs: HttpLoadResult[]): HttpLoadResult {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const r of runs)
    for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const p50s = runs.map((r) => r.latencyMs.p50).sort((a, b) => a - b);
  return {
    requestsPerSecond: requests / seconds,
    requests,
    seconds,
    statuses,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    latencyMs: {
      p50: p50s[Math.floor((p50s.length - 1) / 2)]!,
      p99: Math.max(...runs.map((r) => r.latencyMs.p99)),
      mean: runs.reduce((n, r) => n + r.latencyMs.mean * r.requests, 0) / Math.max(1, requests),
    },
  };
}
