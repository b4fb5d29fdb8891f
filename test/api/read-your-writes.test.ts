/**
 * Read-your-writes at the origin, with two API processes on one database and
 * one projections directory (two processes behind a balancer): once an
 * edit's receipt is sent, every read of the record from either process, in
 * every format and encoding, shows the edit; and a representation has one
 * ETag whether it was compressed on demand or read from the worker's file.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '../../db/pool.ts';
import { createLogger } from '../../infra/logger.ts';
import { startWorker, type WorkerRuntime } from '../../worker/runtime.ts';
import type { Config } from '../../core/config.ts';
import { startApiProcess, type ApiProcess } from '../helpers/api-process.ts';
import { admit, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/test-config.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let dir: string;
let config: Config;
let pool: pg.Pool;
let apis: ApiProcess[] = [];
let worker: WorkerRuntime | null = null;
let agent: Agent;

const logger = createLogger('silent', 'test');
let current: Config['WORKER_ROLES'] | null = null;
const useWorker = async (roles: Config['WORKER_ROLES']) => {
  await worker?.close();
  worker = await startWorker({ config: { ...config, WORKER_ROLES: roles }, pool, logger });
  current = roles;
};

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  dir = await mkdtemp(path.join(tmpdir(), 'ak-ryw-'));
  const prefix = `t${randomUUID().replaceAll('-', '')}`;
  config = testConfig(database.url, dir, { QUEUE_PREFIX: prefix });
  pool = createPool(config.DATABASE_URL, 10, 'ak-test');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: config.REDIS_URL!,
    QUEUE_PREFIX: prefix,
    PROJECTIONS_DIR: dir,
    PUBLIC_ORIGIN: config.PUBLIC_ORIGIN,
    WRITE_RATE_LIMIT: '10000',
    READ_RATE_LIMIT: '100000',
  };
  apis = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  await useWorker('all');
  agent = await admit(apis[0]!.base);
}, 120_000);

// A test that stopped renders gives the next one a rendering worker again, whatever its outcome.
afterEach(async () => {
  if (current !== 'all') await useWorker('all');
});

afterAll(async () => {
  await Promise.all(apis.map((api) => api.stop()));
  await worker?.close();
  await pool.end();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

/** Every path a record is read at, and the encodings a client may ask for. */
const readPaths = (id: string) => [
  `/api/v1/problems/${id}`,
  `/problems/${id}`,
  `/problems/${id}.json`,
  `/problems/${id}.md`,
];
const ENCODINGS = ['identity', 'gzip', 'br'];

const read = (base: string, url: string, encoding: string, headers: Record<string, string> = {}) =>
  fetch(base + url, { headers: { 'accept-encoding': encoding, ...headers } });

/** Creates a problem and waits until the worker has written its files. */
async function renderedProblem(title: string): Promise<string> {
  const created = await send(apis[0]!.base, agent, 'POST', '/api/problems', problemBody({ title }));
  expect(created.status).toBe(201);
  const id = created.body.resource.id as string;
  await eventually(
    async () =>
      existsSync(path.join(dir, 'problems', `${id}.md.gz`)) && existsSync(path.join(dir, 'problems', `${id}.html.gz`)),
  );
  return id;
}

/** Reads every format in every encoding from both processes; the titles they show that are not `title`. */
async function staleReads(id: string, title: string): Promise<string[]> {
  const stale: string[] = [];
  await Promise.all(
    apis.flatMap((api, n) =>
      readPaths(id).flatMap((url) =>
        ENCODINGS.map(async (encoding) => {
          const res = await read(api.base, url, encoding);
          const text = await res.text();
          if (res.status !== 200 || !text.includes(title))
            stale.push(`process ${n + 1} ${url} ${encoding}: ${res.status}`);
        }),
      ),
    ),
  );
  return stale;
}

describe('an edit read back through two API processes', () => {
  it('shows the edit in every format and encoding as soon as its receipt arrives, before any render', async () => {
    const id = await renderedProblem('Watchers run out before the edit');
    // Both processes hold revision 1 in memory.
    expect(await staleReads(id, 'Watchers run out before the edit')).toEqual([]);
    // Commits go on; renders stop, so the files on disk stay at revision 1.
    await useWorker('commit');

    const edited = await send(apis[1]!.base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'Watchers edited and read back',
    });
    expect(edited.status).toBe(201);
    expect(edited.body.resource.revision).toBe(2);
    expect(await staleReads(id, 'Watchers edited and read back')).toEqual([]);
  }, 60_000);

  it('shows each of twenty edits right after its receipt while the worker renders', async () => {
    const id = await renderedProblem('Twenty edits, revision 1');
    const stale: string[] = [];
    for (let revision = 1; revision <= 20; revision++) {
      const title = `Twenty edits, revision ${revision + 1}`;
      // Alternate the process that takes the edit, as a balancer would.
      const edited = await send(apis[revision % 2]!.base, agent, 'PATCH', `/api/problems/${id}`, {
        base_revision: revision,
        title,
      });
      expect(edited.status).toBe(201);
      stale.push(...(await staleReads(id, title)));
    }
    expect(stale).toEqual([]);
  }, 120_000);
});

describe('an edit after a render cut short', () => {
  it('shows the edit although the killed render left its files but the JSON', async () => {
    const id = await renderedProblem('Render cut short, revision 1');
    await useWorker('commit');
    const second = await send(apis[0]!.base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'Render cut short, revision 2',
    });
    expect(second.status).toBe(201);
    // What a render of revision 2 killed before its last file leaves: every file of the record but the JSON.
    const problems = path.join(dir, 'problems');
    for (const name of [`${id}.html`, `${id}.md`, `${id}.json`]) {
      const res = await read(apis[0]!.base, `/problems/${name.replace(/\.html$/, '')}`, 'identity');
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.toString()).toContain('Render cut short, revision 2');
      if (!name.endsWith('.json')) writeFileSync(path.join(problems, name), bytes);
      writeFileSync(path.join(problems, `${name}.gz`), gzipSync(bytes));
    }
    expect(existsSync(path.join(problems, `${id}.json`))).toBe(false);

    const third = await send(apis[1]!.base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 2,
      title: 'Render cut short, revision 3',
    });
    expect(third.status).toBe(201);
    expect(await staleReads(id, 'Render cut short, revision 3')).toEqual([]);
  }, 60_000);
});

describe('the ETag of a compressed record', () => {
  it("is the same whether the answer was compressed on demand or read from the worker's file", async () => {
    const id = await renderedProblem('One ETag per representation');
    await useWorker('commit');
    const edited = await send(apis[0]!.base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      body: 'Edited, not rendered yet.',
    });
    expect(edited.status).toBe(201);

    const onDemand = new Map<string, string>();
    for (const url of readPaths(id)) {
      for (const encoding of ['gzip', 'br']) {
        const res = await read(apis[0]!.base, url, encoding);
        expect(res.headers.get('content-encoding')).toBe(encoding);
        onDemand.set(`${url} ${encoding}`, res.headers.get('etag')!);
      }
    }

    // The worker renders the edit; its files now answer.
    await useWorker('all');
    await eventually(async () =>
      (await read(apis[1]!.base, `/problems/${id}.md`, 'identity').then((r) => r.text())).includes(
        'Edited, not rendered yet.',
      ),
    );
    for (const api of apis) {
      for (const [key, etag] of onDemand) {
        const [url, encoding] = key.split(' ') as [string, string];
        const res = await read(api.base, url, encoding, { 'if-none-match': etag });
        expect({ key, status: res.status, etag: res.headers.get('etag') }).toEqual({ key, status: 304, etag });
      }
    }
  }, 60_000);
});
