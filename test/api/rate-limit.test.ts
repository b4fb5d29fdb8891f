import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { admit, errorOf, newSecret, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

/**
 * The limits count in fixed windows aligned to the clock, so every count in
 * this file must fall in one window: the windows are an hour long, and a run
 * that would start in an hour's last two minutes waits for the next hour (a
 * run that straddled a boundary once saw [201, 201, 429] for admissions).
 */
const WINDOW_SECONDS = 3600;
const MARGIN_SECONDS = 120;

let stack: Stack;
beforeAll(
  async () => {
    const left = WINDOW_SECONDS - ((Date.now() / 1000) % WINDOW_SECONDS);
    if (left < MARGIN_SECONDS) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
    stack = await startStack({
      READ_RATE_LIMIT: '5',
      READ_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      WRITE_RATE_LIMIT: '2',
      WRITE_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      ADMISSION_RATE_LIMIT: '3',
      ADMISSION_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
  },
  (MARGIN_SECONDS + 60) * 1000,
);
afterAll(() => stack.close());

describe('rate limits', () => {
  it('limits writes per identity: 429 with an integer Retry-After and RateLimit headers', async () => {
    const agent = await admit(stack.base);
    const a = await send(stack.base, agent, 'POST', '/api/problems', problemBody());
    expect(a.status).toBe(201);
    expect(a.headers.get('ratelimit-limit')).toBe('2');
    expect(a.headers.get('ratelimit-remaining')).toBe('1');
    expect((await send(stack.base, agent, 'POST', '/api/problems', problemBody())).status).toBe(201);
    const refused = await send(stack.base, agent, 'POST', '/api/problems', problemBody());
    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get('retry-after')!;
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(errorOf(refused.body)).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retry_after: Number(retryAfter),
    });
    // Another identity has its own budget.
    const other = await admit(stack.base);
    expect((await send(stack.base, other, 'POST', '/api/problems', problemBody())).status).toBe(201);
  });

  it('limits admission per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${stack.base}/api/public/admission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
      });
      statuses.push(res.status);
    }
    // The two admissions of the first test count too: the limit of 3 is reached by the first here.
    expect(statuses).toEqual([201, 429, 429]);
  });

  it('limits reads per client address', async () => {
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) last = await fetch(`${stack.base}/api/v1`);
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(errorOf(await last!.json()).code).toBe('rate_limited');
  });
});
