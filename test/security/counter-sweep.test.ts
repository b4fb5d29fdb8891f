/**
 * Hole 7: without Redis, `rate_limit_counters` gained a row per (bucket,
 * subject, window) and was never swept. Expired rows are now removed on a
 * timer by every API process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCounterSweeper } from '../../api/limits/counter-sweeper.ts';
import { createLogger } from '../../infra/logger.ts';
import { eventually } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  // No Redis: rate limits count in PostgreSQL, and the API sweeps every second.
  stack = await startStack(
    { REDIS_URL: '', RATE_LIMIT_SWEEP_SECONDS: '1', READ_RATE_WINDOW_SECONDS: '1' },
    { worker: false },
  );
});
afterAll(() => stack.close());

const countRows = async () =>
  Number((await stack.pool.query('SELECT count(*) FROM rate_limit_counters')).rows[0].count);

describe('rate-limit counters in PostgreSQL', () => {
  it('are removed once their window has passed, by the running API', async () => {
    await stack.pool.query(`INSERT INTO rate_limit_counters (key, count, expires_at)
      SELECT 'stale:' || g, 1, now() - interval '1 minute' FROM generate_series(1, 500) g`);
    for (let i = 0; i < 5; i++) await fetch(`${stack.base}/api/v1`);
    await eventually(async () => (await countRows()) < 5, 10_000);
  });

  it('keep the counters of the current window', async () => {
    await stack.pool.query(
      `INSERT INTO rate_limit_counters (key, count, expires_at) VALUES ('live:x', 3, now() + interval '1 hour')`,
    );
    const sweeper = startCounterSweeper(stack.pool, 60_000, createLogger('silent', 'test'));
    try {
      await sweeper.sweep();
    } finally {
      sweeper.stop();
    }
    const live = await stack.pool.query(`SELECT count FROM rate_limit_counters WHERE key = 'live:x'`);
    expect(live.rows[0]?.count).toBe(3);
  });
});
