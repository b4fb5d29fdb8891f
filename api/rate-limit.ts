/**
 * Fixed-window rate limits, one counter per (bucket, subject, window), kept
 * in Redis or, without Redis, in PostgreSQL. Answers carry RateLimit-*
 * headers; a refusal is 429 with an integer Retry-After. If the counter
 * store cannot answer, requests pass: a limiter outage must not take reads down.
 */
import type { Context } from 'hono';
import type { Redis } from 'ioredis';
import { apiError } from '../core/errors.ts';
import type { Queryable } from '../db/pool.ts';
import { incrementCounter } from '../db/queries/rate-limits.ts';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export type RateLimiter = (c: Context, bucket: string, subject: string, rule: RateRule) => Promise<void>;

/** Counts one hit on a key that lives `ttlSeconds`, returning the count so far. */
export type Counter = (key: string, ttlSeconds: number) => Promise<number>;

export function redisCounter(redis: Redis): Counter {
  return async function countInRedis(key, ttlSeconds) {
    const [[, count]] = (await redis.multi().incr(key).expire(key, ttlSeconds).exec()) as [[unknown, number]];
    return count;
  };
}

export function postgresCounter(db: Queryable): Counter {
  return function countInPostgres(key, ttlSeconds) {
    return incrementCounter(db, key, ttlSeconds);
  };
}

export function createRateLimiter(counter: Counter, prefix: string): RateLimiter {
  return async function enforceRateLimit(c, bucket, subject, rule) {
    const now = Date.now() / 1000;
    const window = Math.floor(now / rule.windowSeconds);
    const key = `${prefix}:rl:${bucket}:${subject}:${window}`;
    let count: number;
    try {
      count = await counter(key, rule.windowSeconds + 1);
    } catch {
      return;
    }
    const reset = Math.max(1, Math.ceil((window + 1) * rule.windowSeconds - now));
    c.header('RateLimit-Policy', `${rule.limit};w=${rule.windowSeconds}`);
    c.header('RateLimit-Limit', String(rule.limit));
    c.header('RateLimit-Remaining', String(Math.max(0, rule.limit - count)));
    c.header('RateLimit-Reset', String(reset));
    if (count > rule.limit) {
      throw apiError('rate_limited', `Too many requests: the limit is ${rule.limit} per ${rule.windowSeconds} s. Retry after ${reset} s.`, {
        reason: `${bucket}_rate_limited`,
        retryAfter: reset,
      });
    }
  };
}

/** The client's address: the socket peer, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
