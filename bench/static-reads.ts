/**
 * Static projection reads: GET (200) and conditional GET (304) throughput of
 * one problem page from the Node service (request log on, rate limit on),
 * against nginx serving the same file with the shipped config. Same URL,
 * connections and duration; wrk, one thread, side by side in one run.
 */
import { admit, send } from '../test/helpers/client.ts';
import { combineRuns, runWrk, type HttpLoad, type HttpLoadResult } from './lib/wrk.ts';
import { round } from './lib/stats.ts';
import type { Bench, Comparison } from './lib/types.ts';
import { problemContent } from './lib/seed.ts';
import { projectionWritten, rendersCaughtUp } from './lib/wait.ts';

const CONNECTIONS = 32;
/** Each load runs ROUNDS times, service and nginx taking turns, so a change in the machine's load falls on both. */
const ROUNDS = 4;
const ROUND_SECONDS = 2;
const SECONDS = ROUNDS * ROUND_SECONDS;
const WARMUP_SECONDS = 2;
const SOLUTIONS = 3;

export const staticReads: Bench = {
  name: 'static-reads',
  title: 'projection GET and If-None-Match GET (304) throughput: the service vs nginx serving the same file',
  budgetSeconds: 60,
  async run(ctx) {
    const stack = await ctx.startStack();
    const agent = await admit(stack.base);
    const created = await send(stack.base, agent, 'POST', '/api/problems', problemContent('static', 1));
    if (created.status !== 201) throw new Error(`the write answered ${created.status}`);
    const id = created.body.resource.id as string;
    for (let i = 0; i < SOLUTIONS; i++) {
      await send(stack.base, agent, 'POST', '/api/solutions', {
        problem_id: id,
        body: `Raise fs.inotify.max_user_watches (variant ${i}).`,
        applicability: 'Linux hosts.',
      });
    }
    // The page with all its solutions, written by the worker.
    await projectionWritten(stack.config.PROJECTIONS_DIR, `problems/${id}.html`);
    await rendersCaughtUp(stack.pool, 15_000);
    // The API is measured as it is deployed, a process of its own (WORKER_ROLES): the worker,
    // idle now, would otherwise share its event loop with queue polling while nginx has none.
    await stack.stopWorker();
    const nginx = await ctx.startNginx(stack);

    const path = `/problems/${id}`;
    // wrk sends no Accept-Encoding, so the page it gets is the identity file: fetch asks for the same
    // (by default it asks for br and gzip, whose siblings carry ETags of their own).
    const identity = { 'Accept-Encoding': 'identity' };
    const service = await fetch(stack.base + path, { headers: identity });
    const edge = await fetch(nginx.base + path, { headers: identity });
    const page = Buffer.from(await service.arrayBuffer());
    const etag = service.headers.get('etag')!;
    if (edge.headers.get('etag') !== etag || edge.headers.get('x-request-id') !== null) {
      throw new Error("nginx does not serve the service's file from disk; see test/deploy/nginx.test.ts");
    }
    await edge.arrayBuffer();
    ctx.log(
      `page ${path}: ${page.length} bytes of HTML, ETag ${etag}; ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s each`,
    );

    const script = ctx.tempFile('count-statuses.lua');
    const runHttpLoad = (load: HttpLoad) => runWrk(load, script);
    const report = (label: string, result: HttpLoadResult) => {
      ctx.log(
        `${label.padEnd(16)} ${Math.round(result.requestsPerSecond).toLocaleString('en')} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, statuses ${JSON.stringify(result.statuses)}`,
      );
      return result;
    };
    /** The same load against the service and nginx, in alternating rounds. */
    const sideBySide = async (label: string, headers?: Record<string, string>) => {
      const service: HttpLoadResult[] = [];
      const edge: HttpLoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        service.push(
          await runHttpLoad({ url: stack.base + path, connections: CONNECTIONS, seconds: ROUND_SECONDS, headers }),
        );
        edge.push(
          await runHttpLoad({ url: nginx.base + path, connections: CONNECTIONS, seconds: ROUND_SECONDS, headers }),
        );
      }
      return [report(`service ${label}`, combineRuns(service)), report(`nginx ${label}`, combineRuns(edge))] as const;
    };
    await runHttpLoad({ url: stack.base + path, connections: CONNECTIONS, seconds: WARMUP_SECONDS });
    await runHttpLoad({ url: nginx.base + path, connections: CONNECTIONS, seconds: WARMUP_SECONDS });
    const [serviceGet, nginxGet] = await sideBySide('GET');
    const [service304, nginx304] = await sideBySide('304', { 'If-None-Match': etag });

    const notes: string[] = [];
    for (const [label, r, status] of [
      ['service GET', serviceGet, '200'],
      ['nginx GET', nginxGet, '200'],
      ['service 304', service304, '304'],
      ['nginx 304', nginx304, '304'],
    ] as const) {
      const other = r.requests - (r.statuses[status] ?? 0);
      if (other > 0 || r.errors > 0) notes.push(`${label}: ${other} answers were not ${status}, ${r.errors} errors`);
    }
    notes.push(
      'wrk (one thread) shares the machine with the server it measures; the service logs every request (to a file) and rate-limits every read.',
    );

    const nginxLabel = 'nginx, same file';
    const comparisons: Comparison[] = [
      {
        metric: 'GET 200 throughput, service',
        unit: 'req/s',
        value: serviceGet.requestsPerSecond,
        baselineLabel: nginxLabel,
        baseline: nginxGet.requestsPerSecond,
        better: 'higher',
      },
      {
        metric: 'GET 304 throughput, service',
        unit: 'req/s',
        value: service304.requestsPerSecond,
        baselineLabel: nginxLabel,
        baseline: nginx304.requestsPerSecond,
        better: 'higher',
      },
      {
        metric: 'GET 200 latency p99, service',
        unit: 'ms',
        value: serviceGet.latencyMs.p99,
        baselineLabel: nginxLabel,
        baseline: nginxGet.latencyMs.p99,
        better: 'lower',
      },
      {
        metric: 'GET 304 latency p99, service',
        unit: 'ms',
        value: service304.latencyMs.p99,
        baselineLabel: nginxLabel,
        baseline: nginx304.latencyMs.p99,
        better: 'lower',
      },
    ];
    return {
      comparisons,
      details: {
        path,
        pageBytes: page.length,
        connections: CONNECTIONS,
        seconds: SECONDS,
        rounds: ROUNDS,
        warmupSeconds: WARMUP_SECONDS,
        nginxWorkers: 1,
        runs: Object.fromEntries(
          Object.entries({ serviceGet, nginxGet, service304, nginx304 }).map(([k, r]) => [
            k,
            { ...r, requestsPerSecond: round(r.requestsPerSecond) },
          ]),
        ),
      },
      notes,
    };
  },
};
