/**
 * Rate-limit counts kept in memory and added to the shared store in batches:
 * exact within a process, shared across processes within one sync, and still
 * counting while the store is away.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  createLocalCounter,
  postgresBatchStore,
  redisBatchStore,
  type BatchStore,
} from '../../api/limits/local-counter.ts';
import { createPool } from '../../db/pool.ts';
import { cloneDatabase } from '../helpers/database.ts';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(() => redis.quit());

const SYNC_NEVER = 3_600_000;
const count = async (c: { counter(key: string, ttl: number): Promise<number> }, key: string, n: number) => {
  let last = 0;
  for (let i = 0; i < n; i++) last = await c.counter(key, 60);
  return last;
};

describe('the local rate-limit counter', () => {
  it('counts exactly within one process without asking the store per hit', async () => {
    let calls = 0;
    const store: BatchStore = async (entries) => {
      calls++;
      return entries.map((e) => e.hits);
    };
    const local = createLocalCounter(store, SYNC_NEVER);
    expect(await count(local, 'k', 7)).toBe(7);
    expect(calls).toBe(0);
    await local.flush();
    expect(calls).toBe(1);
    expect(await local.counter('k', 60)).toBe(8);
    await local.close();
  });

  it('shares counts between processes through Redis, one batch per sync', async () => {
    const key = `t${randomUUID()}:rl:read:127.0.0.1:1`;
    const a = createLocalCounter(redisBatchStore(redis), SYNC_NEVER);
    const b = createLocalCounter(redisBatchStore(redis), SYNC_NEVER);
    await count(a, key, 5);
    await count(b, key, 3);
    await a.flush();
    await b.flush();
    expect(Number(await redis.get(key))).toBe(8);
    expect(await redis.ttl(key)).toBeGreaterThan(0);
    // a has heard 5 of its own; after its next sync it knows b's 3 too.
    expect(await a.counter(key, 60)).toBe(6);
    await a.flush();
    expect(await a.counter(key, 60)).toBe(10);
    await Promise.all([a.close(), b.close()]);
    expect(Number(await redis.get(key))).toBe(10);
  });

  it('admits a hit up to the limit on the same tally as counter, and past it counts nothing', async () => {
    const sent: number[] = [];
    const local = createLocalCounter(async (entries) => {
      sent.push(...entries.map((e) => e.hits));
      return entries.map((e) => e.hits);
    }, SYNC_NEVER);
    expect(local.admit('k', 60, 3)).toBe(1);
    expect(await local.counter('k', 60)).toBe(2);
    expect(local.admit('k', 60, 3)).toBe(3);
    expect(local.admit('k', 60, 3)).toBeNull();
    expect(local.peek('k')).toBe(3);
    await local.flush();
    expect(sent).toEqual([3]);
    await local.close();
  });

  it('keeps counting while the store is away and sends the hits once it is back', async () => {
    let up = false;
    const sent: number[] = [];
    const store: BatchStore = async (entries) => {
      if (!up) throw new Error('store away');
      sent.push(...entries.map((e) => e.hits));
      return entries.map((e) => e.hits);
    };
    const local = createLocalCounter(store, SYNC_NEVER);
    await count(local, 'k', 4);
    await local.flush();
    expect(await local.counter('k', 60)).toBe(5);
    up = true;
    await local.flush();
    expect(sent).toEqual([5]);
    expect(await local.counter('k', 60)).toBe(6);
    await local.close();
  });

  it('shares counts through PostgreSQL when there is no Redis', async () => {
    const database = await cloneDatabase(inject('templateDatabase'));
    const pool = createPool(database.url, 2);
    try {
      const a = createLocalCounter(postgresBatchStore(pool), SYNC_NEVER);
      const b = createLocalCounter(postgresBatchStore(pool), SYNC_NEVER);
      await count(a, 'x', 2);
      await count(a, 'y', 1);
      await count(b, 'x', 3);
      await a.flush();
      await b.flush();
      expect(await a.counter('x', 60)).toBe(3);
      await a.flush();
      expect(await a.counter('x', 60)).toBe(7);
      const rows = (await pool.query('SELECT key, count FROM rate_limit_counters ORDER BY key')).rows;
      expect(rows).toEqual([
        { key: 'x', count: 6 },
        { key: 'y', count: 1 },
      ]);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
