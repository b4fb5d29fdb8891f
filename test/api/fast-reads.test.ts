/**
 * The pre-router read path (api/reads/fast-reads.ts) against the app: for every
 * mix of path, method, Accept, Accept-Encoding and If-None-Match, a server
 * with the fast path and a server with the app alone give the same status,
 * the same headers and the same bytes. Reads past the rate limit, and
 * everything else the fast path does not answer, get the app's own answer.
 */
import {
  request,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { FastRead } from '../../api/reads/fast-reads.ts';
import { createAppDeps } from '../../api/service.ts';
import type { Config } from '../../core/config.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { createLogger } from '../../infra/logger.ts';
import { admit, errorOf, eventually, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function ask(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ between any two answers: per request, per moment, per count. */
const VOLATILE = new Set([
  'date',
  'x-request-id',
  'ratelimit-remaining',
  'ratelimit-reset',
  'connection',
  'keep-alive',
]);
const stable = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !VOLATILE.has(name))
      .sort(),
  );

/** The bytes, or for an error the Error shape without its request id (one per request). */
function bodyOf(answer: Answer): unknown {
  if (answer.status < 400 || answer.body.length === 0) return answer.body.toString('base64');
  const { error } = JSON.parse(answer.body.toString()) as { error: Record<string, unknown> };
  return { ...error, request_id: undefined };
}

async function serve(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

let stack: Stack;
let problemId: string;
const servers: Server[] = [];
let closeDeps: () => Promise<void>;
let pairs = 0;

/** Opens a fast-path server and an app-only server on one set of dependencies; counts the fast path's answers. */
async function startPair(overrides: Partial<Config> = {}) {
  // A prefix of its own: rate-limit counters of one pair never meet another's.
  const config: Config = { ...stack.config, QUEUE_PREFIX: `${stack.config.QUEUE_PREFIX}p${++pairs}`, ...overrides };
  const built = await createAppDeps(config, stack.pool, createLogger('silent', 'test'));
  const previous = closeDeps;
  closeDeps = async () => {
    await previous?.();
    await built.close();
  };
  const appListener = getRequestListener(createApp(built.deps).fetch);
  const fast: FastRead = built.fastReads;
  const counts = { fast: 0 };
  const withFast = await serve((req: IncomingMessage, res: ServerResponse) => {
    if (fast(req, res)) counts.fast++;
    else void appListener(req, res);
  });
  const appOnly = await serve((req: IncomingMessage, res: ServerResponse) => void appListener(req, res));
  servers.push(withFast.server, appOnly.server);
  return { fastPort: withFast.port, appPort: appOnly.port, counts };
}

beforeAll(async () => {
  stack = await startStack();
  const agent = await admit(stack.base);
  const created = await send(
    stack.base,
    agent,
    'POST',
    '/api/problems',
    problemBody({ body: 'A body long enough to be compressed. '.repeat(40) }),
  );
  problemId = created.body.resource.id;
  await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await closeDeps?.();
  await stack.close();
});

describe('reads answered before the router', () => {
  it('answer every default projection exactly as the app does: status, headers and bytes', async () => {
    const { fastPort, appPort, counts } = await startPair({ READ_RATE_LIMIT: 1_000_000 });
    const paths = [
      `/problems/${problemId}`,
      `/problems/${problemId}.json`,
      `/problems/${problemId}.md`,
      `/api/v1/problems/${problemId}`,
    ];
    const accepts = [
      undefined,
      'application/json',
      'text/markdown',
      'text/html,application/xhtml+xml,*/*;q=0.8',
      'image/png',
    ];
    const encodings = [undefined, 'gzip', 'br, gzip', 'gzip;q=0, br;q=0', 'identity'];
    let compared = 0;
    for (const path of paths) {
      for (const method of ['GET', 'HEAD']) {
        for (const accept of accepts) {
          for (const [i, encoding] of encodings.entries()) {
            const headers: Record<string, string> = {};
            if (accept) headers.accept = accept;
            if (encoding) headers['accept-encoding'] = encoding;
            // A cross-origin read gets the same answer (api/http/cors.ts): every other one names an Origin.
            if (i % 2 === 1) headers.origin = 'https://elsewhere.example';
            const app = await ask(appPort, method, path, headers);
            const fast = await ask(fastPort, method, path, headers);
            const label = `${method} ${path} accept=${accept} encoding=${encoding}`;
            expect(fast.status, label).toBe(app.status);
            expect(stable(fast.headers), label).toEqual(stable(app.headers));
            expect(bodyOf(fast), label).toEqual(bodyOf(app));
            // Revalidation with the ETag just given.
            if (app.status === 200 && app.headers.etag) {
              const again = { ...headers, 'if-none-match': app.headers.etag };
              const app304 = await ask(appPort, method, path, again);
              const fast304 = await ask(fastPort, method, path, again);
              expect(app304.status, label).toBe(304);
              expect(fast304.status, label).toBe(304);
              expect(stable(fast304.headers), label).toEqual(stable(app304.headers));
              expect(fast304.body.length).toBe(0);
            }
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(paths.length * 2 * accepts.length * encodings.length);
    // Most of them came from the fast path; the rest (406s, identity bytes a client wants compressed) from the app.
    expect(counts.fast).toBeGreaterThan(compared);
  });

  it('hand everything else to the app: query strings, unknown records, other methods, preflights', async () => {
    const { fastPort, appPort, counts } = await startPair();
    const cases: [string, string, Record<string, string>][] = [
      ['GET', `/problems/${problemId}?page=1`, {}],
      [
        'OPTIONS',
        `/problems/${problemId}`,
        { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
      ],
      ['GET', '/problems/prb_00000000000000000000000000', {}],
      ['GET', '/problems/not-an-id', {}],
      ['GET', `/api/v1/problems/${problemId}.json`, {}],
      ['OPTIONS', `/problems/${problemId}`, {}],
      ['POST', `/problems/${problemId}`, {}],
    ];
    for (const [method, path, headers] of cases) {
      const app = await ask(appPort, method, path, headers);
      const fast = await ask(fastPort, method, path, headers);
      expect(fast.status, `${method} ${path}`).toBe(app.status);
      expect(stable(fast.headers), `${method} ${path}`).toEqual(stable(app.headers));
    }
    expect(counts.fast).toBe(0);
  });

  it("count reads on the app's budget, and leave the 429 to the app", async () => {
    const { fastPort, counts } = await startPair({ READ_RATE_LIMIT: 3, READ_RATE_WINDOW_SECONDS: 60 });
    const path = `/problems/${problemId}.json`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(fastPort, 'GET', path));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(answers[0]!.headers['ratelimit-policy']).toBe('3;w=60');
    // The first read found the cache cold and went through the app, which loaded the file; both spent one budget.
    expect(counts.fast).toBe(2);
    const refused = answers[3]!;
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(errorOf(JSON.parse(refused.body.toString())).code).toBe('rate_limited');
    // Other reads of the same address share the budget: the app's own paths are refused too.
    expect((await ask(fastPort, 'GET', '/api/v1')).status).toBe(429);
  });
});
