/**
 * Fixed-window rate limits, one counter per (bucket, subject, window),
 * counted in memory and shared through Redis or, without Redis, PostgreSQL
 * (api/limits/local-counter.ts). Answers carry RateLimit-* headers; a refusal is
 * 429 with an integer Retry-After. While the shared store is away each
 * process goes on counting its own clients; a counter that fails lets the
 * request pass: a limiter outage must not take reads down.
 */
import type { Context } from 'hono';
import type { Config } from '../../core/config.ts';
import type { Reason } from '../../core/errors-data.ts';
import { apiError } from '../../core/errors.ts';
import { clientAddressKey } from '../../core/trust/address-key.ts';

export interface RateRule {
  limit: number;
  windowSeconds: number;
}

/** Reads are limited per client address, by this rule (the app's middleware and api/reads/fast-reads.ts). */
export const readRule = (config: Pick<Config, 'READ_RATE_LIMIT' | 'READ_RATE_WINDOW_SECONDS'>): RateRule => ({
  limit: config.READ_RATE_LIMIT,
  windowSeconds: config.READ_RATE_WINDOW_SECONDS,
});

/** What is counted, and the reason a refusal of each carries. */
const RATE_LIMITED = {
  read: 'read_rate_limited',
  write: 'write_rate_limited',
  admission: 'admission_rate_limited',
  auth_failure: 'auth_failures_rate_limited',
  passkey_ceremony: 'passkey_ceremony_rate_limited',
  registration: 'registration_rate_limited',
} as const satisfies Record<string, Reason>;

export type RateBucket = keyof typeof RATE_LIMITED;

/** Spends `cost` (default 1) of the subject's budget in the bucket; throws 429 past the limit. */
export type RateLimiter = (
  c: Context,
  bucket: RateBucket,
  subject: string,
  rule: RateRule,
  cost?: number,
) => Promise<void>;

/** Adds `amount` hits to a key that lives `ttlSeconds`, returning the count so far. */
export type Counter = (key: string, ttlSeconds: number, amount?: number) => Promise<number>;

/** The key of the subject's counter in the current window of `rule`. */
export function windowOf(prefix: string, bucket: RateBucket, subject: string, rule: RateRule) {
  const now = Date.now() / 1000;
  const window = Math.floor(now / rule.windowSeconds);
  return {
    key: `${prefix}:rl:${bucket}:${subject}:${window}`,
    resetSeconds: Math.max(1, Math.ceil((window + 1) * rule.windowSeconds - now)),
  };
}

/** The 429 of a bucket, with the RateLimit-* facts of the refusal. */
export function rateLimited(bucket: RateBucket, rule: RateRule, resetSeconds: number) {
  return apiError(
    RATE_LIMITED[bucket],
    { limit: rule.limit, windowSeconds: rule.windowSeconds, resetSeconds },
    {
      retryAfter: resetSeconds,
    },
  );
}

export function createRateLimiter(counter: Counter, prefix: string): RateLimiter {
  return async function enforceRateLimit(c, bucket, subject, rule, cost = 1) {
    const { key, resetSeconds: reset } = windowOf(prefix, bucket, subject, rule);
    let count: number;
    try {
      count = await counter(key, rule.windowSeconds + 1, cost);
    } catch {
      return;
    }
    const headers = rateLimitHeaders(rule, count, reset);
    for (let i = 0; i < headers.length; i += 2) c.header(headers[i]!, headers[i + 1]);
    if (count > rule.limit) {
      throw rateLimited(bucket, rule, reset);
    }
  };
}

/** The RateLimit-* headers of an answer, as name, value, name, value. */
export function rateLimitHeaders(rule: RateRule, count: number, resetSeconds: number): string[] {
  return [
    'RateLimit-Policy',
    `${rule.limit};w=${rule.windowSeconds}`,
    'RateLimit-Limit',
    String(rule.limit),
    'RateLimit-Remaining',
    String(Math.max(0, rule.limit - count)),
    'RateLimit-Reset',
    String(resetSeconds),
  ];
}

/**
 * The read limit for the pre-router read path (api/reads/fast-reads.ts), on the
 * same counters, keys and windows as the app's `enforceRateLimit`: counts
 * the read and returns its RateLimit-* headers, or returns null without
 * counting when this read would be refused. The app then counts it and
 * answers the 429, so every refusal is the app's own answer.
 */
export function createReadAdmission(
  counts: { admit(key: string, ttlSeconds: number, limit: number): number | null },
  prefix: string,
  rule: RateRule,
): (subject: string) => string[] | null {
  return function admitRead(subject) {
    const { key, resetSeconds } = windowOf(prefix, 'read', subject, rule);
    const count = counts.admit(key, rule.windowSeconds + 1, rule.limit);
    return count === null ? null : rateLimitHeaders(rule, count, resetSeconds);
  };
}

/**
 * The client key: what every per-client limit counts under (reads, writes
 * without an identity, admission, failed credential checks, passkey
 * ceremonies, client registration) and what trust groups admissions by.
 * One rule (core/trust/address-key.ts): an IPv4 address, or the /64 of an
 * IPv6 address, of the client as `forwardedPeer` finds it behind the
 * trusted proxy hops. A limit keyed on the whole IPv6 address would let one
 * host rotate through its /64 (2^64 addresses) and never be counted twice.
 */
export function clientAddress(c: Context, trustedHops: number): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return addressOf(
    incoming?.socket?.remoteAddress,
    trustedHops === 0 ? undefined : c.req.header('x-forwarded-for'),
    trustedHops,
  );
}

/** `clientAddress` from the socket peer and the X-Forwarded-For header (for code that has no Hono context). */
export function addressOf(
  socketPeer: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string {
  return clientAddressKey(forwardedPeer(socketPeer, forwardedFor, trustedHops));
}

/**
 * The client's own address. With no trusted proxies it is the socket peer.
 * Each trusted proxy appends the address it saw to X-Forwarded-For, so the
 * client is the entry `trustedHops` from the right of [...X-Forwarded-For,
 * peer]: entries further left were written by whoever sent the request and
 * are not believed. With fewer entries than hops, the leftmost is the best known.
 */
export function forwardedPeer(
  socketPeer: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string {
  const peer = socketPeer ?? 'unknown';
  if (trustedHops === 0) return peer;
  const forwarded = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}
