/**
 * The change feed under racing commits: no commit lock serialises them, so
 * commits finish in any order; a reader paging `next_cursor` meanwhile must
 * still see every change exactly once, in growing cursor order.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, eventually, newKey, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { createWorkerProcess, type WorkerProcess } from '../helpers/worker-process.ts';

const WORKER_PROCESSES = 3;
const WRITES = 200;

let stack: Stack;
let agents: Agent[];
let logDir: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  // Every agent here connects from loopback: one client key, so its limits are raised like the rate limits.
  stack = await startStack(
    { WRITE_RATE_LIMIT: '1000000', READ_RATE_LIMIT: '1000000', HTTP_MAX_CONNECTIONS_PER_CLIENT: '1024' },
    { worker: false },
  );
  logDir = await mkdtemp(path.join(tmpdir(), 'ak-feed-workers-'));
  const env = {
    DATABASE_URL: stack.config.DATABASE_URL,
    REDIS_URL: stack.config.REDIS_URL!,
    QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
    PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
    LOG_LEVEL: 'info',
    PUBLIC_ORIGIN: stack.config.PUBLIC_ORIGIN,
    // Nine commits at once across the three: enough to race, few connections on a shared server.
    WORKER_CONCURRENCY: '3',
  };
  for (let i = 0; i < WORKER_PROCESSES; i++)
    workers.push(createWorkerProcess(env, path.join(logDir, `worker-${i}.log`)));
  await Promise.all(workers.map((w) => w.start()));
  agents = await Promise.all(Array.from({ length: 4 }, () => admit(stack.base)));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await stack.close();
  await rm(logDir, { recursive: true, force: true });
});

interface Page {
  changes: { cursor: string; kind: string }[];
  next_cursor: string;
  has_more: boolean;
}

const page = async (since: string, limit: number): Promise<Page> =>
  (await fetch(`${stack.base}/api/v1/changes?limit=${limit}&since=${since}`)).json() as Promise<Page>;

describe('the change feed under racing commits', () => {
  it(`never lets a reader following next_cursor skip or repeat a change while ${WRITES} commits race in ${WORKER_PROCESSES} worker processes`, async () => {
    const start = (await stack.pool.query('SELECT coalesce(max(cursor), 0)::text AS c FROM changes')).rows[0]
      .c as string;
    // Two readers: one takes small pages as fast as it can, one large pages.
    const readers = [3, 100].map((limit) => {
      const seen: string[] = [];
      let cursor = start;
      let writing = true;
      const done = (async () => {
        while (writing) {
          const p = await page(cursor, limit);
          seen.push(...p.changes.map((c) => c.cursor));
          cursor = p.next_cursor;
        }
      })();
      return {
        seen,
        async finish(expected: Set<string>) {
          writing = false;
          await done;
          // The feed's end may trail a transaction elsewhere on the server; page until all is there.
          await eventually(async () => {
            const p = await page(cursor, limit);
            seen.push(...p.changes.map((c) => c.cursor));
            cursor = p.next_cursor;
            return !p.has_more && [...expected].every((c) => seen.includes(c));
          }, 60_000);
        },
      };
    });

    const writes = await Promise.all(
      Array.from({ length: WRITES }, (_, i) =>
        send(stack.base, agents[i % agents.length]!, 'POST', '/api/discussions', { title: `Racing ${i}`, body: 'x' }),
      ),
    );
    expect(writes.map((w) => w.status)).toEqual(Array(WRITES).fill(201));
    const committed = new Set(writes.map((w) => w.body.change_cursor as string));
    expect(committed.size).toBe(WRITES);
    await Promise.all(readers.map((r) => r.finish(committed)));

    for (const { seen } of readers) {
      expect(seen.filter((c) => committed.has(c)).length).toBe(WRITES);
      expect(new Set(seen).size).toBe(seen.length);
      const order = seen.map(BigInt);
      expect(order.every((c, i) => i === 0 || c > order[i - 1]!)).toBe(true);
    }
    // The commits really were spread over the worker processes.
    const logs = await Promise.all(workers.map((w) => readFile(w.logFile, 'utf8')));
    const busy = logs.filter((log) => log.includes('"msg":"committed"')).length;
    expect(busy).toBeGreaterThan(1);
  }, 180_000);

  it('hands out cursors that only grow, also across a transaction that appends two changes', async () => {
    const client = await stack.pool.connect();
    try {
      await client.query('BEGIN');
      const r = await client.query(`INSERT INTO changes (kind, resource_type, resource_id, public, committed_at)
        VALUES ('test.one', 'problem', 'prb_x', false, now()), ('test.two', 'problem', 'prb_x', false, now()) RETURNING cursor::text`);
      await client.query('ROLLBACK');
      const [a, b] = r.rows.map((row) => BigInt(row.cursor));
      expect(b! - a!).toBe(1n);
    } finally {
      client.release();
    }
  });

  it('lists a commit while a transaction in another database on the server stays open', async () => {
    // Transaction ids are server-wide: a bulk load or a report left open in another database must not
    // hold back this feed, though it holds back the server's oldest running transaction.
    const elsewhere = new URL(stack.config.DATABASE_URL);
    elsewhere.pathname = '/postgres';
    const other = new pg.Client({ connectionString: elsewhere.toString() });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      const res = await send(stack.base, agents[1]!, 'POST', '/api/discussions', {
        title: 'Committed while another database has a transaction open',
        body: 'x',
      });
      expect(res.status).toBe(201);
      // The cursor just below the write's: the feed from there starts with it once it is listed.
      const since = (BigInt(res.body.change_cursor) - 1n).toString();
      const listed = await eventually(async () => {
        const p = await page(since, 1);
        return p.changes.length ? p : null;
      }, 20_000);
      expect(listed.changes[0]!.cursor).toBe(res.body.change_cursor);
    } finally {
      await other.query('ROLLBACK').catch(() => {});
      await other.end();
    }
  });

  it('does not list a change whose transaction is still open, nor any later one, until it commits', {
    timeout: 240_000,
  }, async () => {
    const agent = agents[0]!;
    const cursorBefore = (await page('0', 1)).next_cursor;
    const client = await stack.pool.connect();
    try {
      await client.query('BEGIN');
      const open = (
        await client.query(`INSERT INTO changes (kind, resource_type, resource_id, committed_at)
        VALUES ('discussion.created', 'discussion', 'dsc_open', now()) RETURNING cursor::text`)
      ).rows[0].cursor as string;
      // A write committed after the open transaction took its cursor.
      // As a client does: a 503 (commit not known in time on a busy machine) is retried with the same key.
      const key = newKey();
      const later = await eventually(async () => {
        const res = await send(
          stack.base,
          agent,
          'POST',
          '/api/discussions',
          { title: 'Committed while another is open', body: 'x' },
          { key },
        );
        return res.status === 503 ? null : res;
      }, 120_000);
      expect([200, 201]).toContain(later.status);
      expect(BigInt(later.body.change_cursor)).toBeGreaterThan(BigInt(open));
      const all = async () => {
        const cursors: string[] = [];
        let since = cursorBefore;
        for (;;) {
          const p = await page(since, 100);
          cursors.push(...p.changes.map((c) => c.cursor));
          since = p.next_cursor;
          if (!p.has_more) return cursors;
        }
      };
      const whileOpen = await all();
      expect(whileOpen).not.toContain(open);
      expect(whileOpen).not.toContain(later.body.change_cursor);
      await client.query('COMMIT');
      const after = await eventually(async () => {
        const cursors = await all();
        return cursors.includes(later.body.change_cursor) ? cursors : null;
      }, 60_000);
      expect(after.indexOf(open)).toBeGreaterThanOrEqual(0);
      expect(after.indexOf(open)).toBeLessThan(after.indexOf(later.body.change_cursor));
    } finally {
      client.release();
    }
  });
});
