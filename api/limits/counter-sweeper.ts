/**
 * Without Redis, rate-limit counters are rows of `rate_limit_counters`, one
 * per (bucket, subject, window); nothing expires them by itself, so each API
 * process sweeps the expired ones on a timer (a DELETE on an indexed column;
 * several processes sweeping at once is harmless).
 */
import type { Logger } from '../../infra/logger.ts';
import type { Queryable } from '../../db/pool.ts';
import { deleteExpiredCounters } from '../../db/queries/rate-limits.ts';

export interface CounterSweeper {
  /** One sweep now; resolves to the rows removed. */
  sweep(): Promise<number>;
  stop(): void;
}

export function startCounterSweeper(db: Queryable, intervalMs: number, logger: Logger): CounterSweeper {
  async function sweep(): Promise<number> {
    const removed = await deleteExpiredCounters(db);
    if (removed) logger.debug({ removed }, 'expired rate-limit counters removed');
    return removed;
  }
  const timer = setInterval(() => {
    // The database being away is reported by the requests that need it; the next sweep retries.
    sweep().catch((error: unknown) => logger.warn({ err: error }, 'rate-limit counter sweep failed'));
  }, intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
