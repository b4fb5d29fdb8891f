/**
 * Rate-limit counting without a network round trip per request. Each API
 * process counts hits in memory and, every `syncMs`, adds what it counted to
 * the shared store (Redis, or PostgreSQL in the embedded mode) in one batch,
 * learning the total every process has added. A request is judged on
 * `shared total + hits counted here since`: exact within one process, and
 * across N processes behind a balancer at most one sync interval of the
 * others' hits late. Keys, windows and therefore the 429 answers are the
 * limiter's own (api/limits/rate-limit.ts); this only changes where counting happens.
 *
 * While the store is away, counting goes on locally (the process still
 * limits its own clients) and the batch is retried at the next sync.
 */
import type { Redis } from 'ioredis';
import type { Queryable } from '../../db/pool.ts';
import { addToCounters } from '../../db/queries/rate-limits.ts';
import type { Counter } from './rate-limit.ts';

/** Adds `hits` to `key` (expiring after `ttlSeconds`) and returns the new total. */
export type BatchStore = (entries: { key: string; hits: number; ttlSeconds: number }[]) => Promise<number[]>;

interface Tally {
  /** The store's total when last heard, including our hits it has taken. */
  shared: number;
  /** Counted here, not yet sent. */
  pending: number;
  /** Sent, not yet acknowledged. */
  sending: number;
  ttlSeconds: number;
  expiresAt: number;
}

export interface LocalCounter {
  counter: Counter;
  /** The counter's total without adding to it (0 when never counted). */
  peek(key: string): number;
  /**
   * `counter` without its promise, for the pre-router reads: counts one hit
   * and returns the total, or returns null without counting when the total
   * would pass `limit`. One look-up and no allocation per read.
   */
  admit(key: string, ttlSeconds: number, limit: number): number | null;
  /** Sends what is pending now (tests; shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createLocalCounter(store: BatchStore, syncMs: number): LocalCounter {
  const tallies = new Map<string, Tally>();
  let syncing: Promise<void> | null = null;

  async function sync(): Promise<void> {
    const now = Date.now();
    const batch: { key: string; hits: number; ttlSeconds: number; tally: Tally }[] = [];
    for (const [key, tally] of tallies) {
      if (tally.pending > 0) {
        batch.push({ key, hits: tally.pending, ttlSeconds: tally.ttlSeconds, tally });
        tally.sending += tally.pending;
        tally.pending = 0;
      } else if (tally.sending === 0 && tally.expiresAt < now) {
        tallies.delete(key);
      }
    }
    if (batch.length === 0) return;
    try {
      const totals = await store(batch.map(({ key, hits, ttlSeconds }) => ({ key, hits, ttlSeconds })));
      batch.forEach(({ tally, hits }, i) => {
        tally.sending -= hits;
        // The store's total includes these hits; later ones are still pending here.
        tally.shared = Math.max(tally.shared + hits, totals[i]!);
      });
    } catch {
      // Store away: keep the hits pending for the next sync; they count locally meanwhile.
      for (const { tally, hits } of batch) {
        tally.sending -= hits;
        tally.pending += hits;
      }
    }
  }

  const runSync = () => {
    syncing ??= sync().finally(() => {
      syncing = null;
    });
    return syncing;
  };
  function tallyOf(key: string, ttlSeconds: number): Tally {
    let tally = tallies.get(key);
    if (!tally) {
      tally = { shared: 0, pending: 0, sending: 0, ttlSeconds, expiresAt: Date.now() + ttlSeconds * 1000 };
      tallies.set(key, tally);
    }
    return tally;
  }

  const timer = setInterval(() => void runSync(), syncMs);
  timer.unref();

  return {
    peek(key) {
      const tally = tallies.get(key);
      return tally ? tally.shared + tally.sending + tally.pending : 0;
    },
    counter(key, ttlSeconds, amount = 1) {
      const tally = tallyOf(key, ttlSeconds);
      tally.pending += amount;
      return Promise.resolve(tally.shared + tally.sending + tally.pending);
    },
    admit(key, ttlSeconds, limit) {
      const tally = tallies.get(key);
      const count = (tally ? tally.shared + tally.sending + tally.pending : 0) + 1;
      if (count > limit) return null;
      (tally ?? tallyOf(key, ttlSeconds)).pending += 1;
      return count;
    },
    async flush() {
      await syncing;
      await runSync();
    },
    async close() {
      clearInterval(timer);
      await this.flush().catch(() => {});
    },
  };
}

/** The batch as one Redis round trip: INCRBY and EXPIRE per key in a MULTI. */
export function redisBatchStore(redis: Redis): BatchStore {
  return async function addInRedis(entries) {
    const multi = redis.multi();
    for (const { key, hits, ttlSeconds } of entries) multi.incrby(key, hits).expire(key, ttlSeconds);
    const replies = (await multi.exec()) ?? [];
    return entries.map((_, i) => {
      const [error, total] = replies[i * 2] ?? [new Error('no reply'), 0];
      if (error) throw error;
      return Number(total);
    });
  };
}

/** The batch as one PostgreSQL statement (the embedded mode, no Redis). */
export function postgresBatchStore(db: Queryable): BatchStore {
  return (entries) => addToCounters(db, entries);
}
