/**
 * Fixed-window rate limits in Redis, one counter per (bucket, subject,
 * window). Answers carry RateLimit-* headers; a refusal is 429 with an
 * integer Retry-After. If Redis cannot answer, requests pass: a limiter
 * outage must not take reads down.
 */
import type { Context } from 'hono';
import type { Redis } from 'ioredis';
import { apiError } from '../core/errors.ts';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export type RateLimiter = (c: Context, bucket: string, subject: string, rule: RateRule) => Promise<void>;

export function createRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return async function enforceRateLimit(c, bucket, subject, rule) {
    const now = Date.now() / 1000;
    const window = Math.floor(now / rule.windowSeconds);
    const key = `${prefix}:rl:${bucket}:${subject}:${window}`;
    let count: number;
    try {
      const [[, incr]] = (await redis.multi().incr(key).expire(key, rule.windowSeconds + 1).exec()) as [[unknown, number]];
      count = incr;
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
