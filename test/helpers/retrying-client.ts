/**
 * A client that behaves as docs/api.md tells clients to: a 503 (or a
 * connection that fails) is retried after Retry-After with the same
 * Idempotency-Key and body, until the write is acknowledged. It records every
 * answer, so a test can assert how the service behaved while a dependency
 * was away.
 */
import { expect } from 'vitest';
import { ErrorBodySchema } from '../../core/schemas/responses.ts';
import type { Agent } from './client.ts';

export interface Answer {
  status: number;
  ms: number;
  at: number;
  retryAfter: string | null;
  /** For error statuses: whether the body is the Error shape. */
  errorShape: boolean | null;
  code: string | null;
  /** `fetch` failed (connection refused, reset): no HTTP answer. */
  networkError?: string;
}

export interface Acknowledged {
  key: string;
  status: 200 | 201;
  receipt: {
    operation: string;
    resource: { type: string; id: string; revision: number | null };
    change_cursor: string;
    replayed: boolean;
  };
  attempts: number;
  /** From the first attempt to the acknowledgement. */
  elapsedMs: number;
}

export class AnswerLog {
  readonly answers: Answer[] = [];

  record(answer: Answer): void {
    this.answers.push(answer);
  }

  byStatus(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const a of this.answers) {
      const k = a.networkError ? 'network' : String(a.status);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    return counts;
  }

  slowest(): number {
    return this.answers.reduce((max, a) => Math.max(max, a.ms), 0);
  }
}

export interface RetryOptions {
  /** Give up (throw) when the write is not acknowledged by then (epoch ms). */
  deadline: number;
  /** Longest pause between attempts, whatever Retry-After says. */
  maxPauseMs?: number;
  /** Per-request bound: an answer slower than this is a hang and aborts the request. */
  requestTimeoutMs: number;
  /** Checked before each retry: true stops retrying (the test already failed). */
  aborted?: () => string | null;
  /**
   * Statuses retried with the same key besides 503: behind a proxy, a 502
   * says the process it chose died with the request, which the same key
   * makes safe to send again.
   */
  alsoRetry?: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends one write until it is acknowledged (200/201). Any answer other than
 * 200, 201 or 503 (or `alsoRetry`) throws: under faults the service may only
 * ask to retry.
 */
export async function writeUntilAcknowledged(
  base: string,
  agent: Agent,
  method: string,
  path: string,
  body: unknown,
  key: string,
  log: AnswerLog,
  options: RetryOptions,
): Promise<Acknowledged> {
  const payload = JSON.stringify(body);
  const first = Date.now();
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    let status = 0;
    let text = '';
    let retryAfter: string | null = null;
    try {
      const res = await fetch(base + path, {
        method,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          authorization: `Bearer ${agent.secret}`,
        },
        body: payload,
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      text = await res.text();
    } catch (error) {
      const name = (error as Error).name;
      log.record({
        status: 0,
        ms: Date.now() - started,
        at: started,
        retryAfter: null,
        errorShape: null,
        code: null,
        networkError: name,
      });
      if (name === 'TimeoutError') throw new Error(`${method} ${path} got no answer in ${options.requestTimeoutMs} ms`);
      if (Date.now() > options.deadline) throw new Error(`${method} ${path} not acknowledged before the deadline`);
      const aborted = options.aborted?.();
      if (aborted) throw new Error(`${method} ${path} not retried: ${aborted}`);
      await sleep(500);
      continue;
    }
    const ms = Date.now() - started;
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // A proxy's own error page is not JSON; the status says what happened.
    }
    if (status === 200 || status === 201) {
      log.record({ status, ms, at: started, retryAfter, errorShape: null, code: null });
      return {
        key,
        status,
        receipt: json as Acknowledged['receipt'],
        attempts: attempt,
        elapsedMs: Date.now() - first,
      };
    }
    const shaped = ErrorBodySchema.safeParse(json);
    log.record({
      status,
      ms,
      at: started,
      retryAfter,
      errorShape: shaped.success,
      code: shaped.success ? shaped.data.error.code : null,
    });
    if (status !== 503 && !options.alsoRetry?.includes(status))
      throw new Error(`${method} ${path} answered ${status}: ${text.slice(0, 500)}`);
    if (Date.now() > options.deadline) throw new Error(`${method} ${path} not acknowledged before the deadline`);
    const aborted = options.aborted?.();
    if (aborted) throw new Error(`${method} ${path} not retried: ${aborted}`);
    const seconds = Number(retryAfter);
    await sleep(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, options.maxPauseMs ?? 2000));
  }
}

/**
 * What every fault must leave true of the answers: only the `allowed`
 * statuses; every 503 is `temporarily_unavailable` in the Error shape with an
 * integer Retry-After; no connection lost; nothing slower than `hangMs`.
 */
export function expectOnlyRetryableRefusals(log: AnswerLog, allowed: string[], hangMs: number): void {
  const statuses = log.byStatus();
  for (const status of Object.keys(statuses)) expect(allowed, JSON.stringify(statuses)).toContain(status);
  for (const a of log.answers.filter((x) => x.status === 503)) {
    expect(a.errorShape).toBe(true);
    expect(a.code).toBe('temporarily_unavailable');
    expect(a.retryAfter).toMatch(/^\d+$/);
  }
  expect(log.slowest()).toBeLessThan(hangMs);
}
