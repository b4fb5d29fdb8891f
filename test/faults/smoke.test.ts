/**
 * A quick fault smoke on private Redis and PostgreSQL (the long runs are in
 * test/faults-long, `npm run test:faults`): each dependency goes away and
 * comes back, the worker is SIGKILLed; writes meanwhile are refused with
 * 503 + Retry-After, and the same request afterwards gets its receipt with
 * no process restarted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, eventually, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startFaultStack, type FaultStack } from '../helpers/fault-stack.ts';

let stack: FaultStack;
let agent: Agent;

beforeAll(async () => {
  stack = await startFaultStack({ COMMIT_TIMEOUT_MS: '3000', RETRY_AFTER_SECONDS: '1' });
  agent = await admit(stack.base);
}, 120_000);
afterAll(() => stack?.close());

const write = (key: string, title: string) =>
  send(stack.base, agent, 'POST', '/api/problems', problemBody({ title }), { key });

function expectRetryLater(res: Awaited<ReturnType<typeof write>>) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(errorOf(res.body)).toMatchObject({ code: 'temporarily_unavailable', retryable: true });
}

/** Retries with the same key until acknowledged, as a client does (bounded). */
const acknowledged = (key: string, title: string) =>
  eventually(async () => {
    // A worker that died by itself will not commit anything: fail now, with its log.
    if (stack.worker.crashes.length) throw new Error(stack.worker.crashes[0]);
    const res = await write(key, title);
    if (res.status !== 503) expect([200, 201]).toContain(res.status);
    return res.status === 200 || res.status === 201 ? res : null;
  }, 60_000);

async function countTitled(title: string): Promise<number> {
  const { rows } = await stack.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM problem_revisions WHERE title = $1::text',
    [title],
  );
  return Number(rows[0]!.n);
}

describe('fault smoke', () => {
  it('refuses writes with 503 + Retry-After while Redis is away and takes the same write once it is back', async () => {
    await stack.redis.kill();
    const key = newKey();
    expectRetryLater(await write(key, 'Written around a Redis restart'));
    await stack.redis.start();
    const res = await acknowledged(key, 'Written around a Redis restart');
    expect(res.body).toMatchObject({ status: 'committed', idempotency_key: key });
    expect(await countTitled('Written around a Redis restart')).toBe(1);
  });

  it('refuses with 503 + Retry-After while PostgreSQL is away; the same worker commits again after its restart', async () => {
    expect((await write(newKey(), 'Before the PostgreSQL restart')).status).toBe(201);
    await stack.postgres.stop('immediate');
    const key = newKey();
    expectRetryLater(await write(key, 'Written around a PostgreSQL restart'));
    const whoami = await fetch(`${stack.base}/api/whoami`, { headers: { authorization: `Bearer ${agent.secret}` } });
    expect(whoami.status).toBe(503);
    expect(whoami.headers.get('retry-after')).toMatch(/^\d+$/);
    await stack.postgres.start();
    await acknowledged(key, 'Written around a PostgreSQL restart');
    expect(await countTitled('Written around a PostgreSQL restart')).toBe(1);
    expect(stack.worker.crashes).toEqual([]);
    expect(stack.worker.starts).toBe(1);
  });

  it('takes a write queued while the worker was SIGKILLed once a new worker runs, exactly once', async () => {
    await stack.worker.kill();
    const key = newKey();
    expectRetryLater(await write(key, 'Queued while the worker was dead'));
    await stack.worker.start();
    const res = await acknowledged(key, 'Queued while the worker was dead');
    expect(res.status).toBe(200);
    expect(await countTitled('Queued while the worker was dead')).toBe(1);
    const id = res.body.resource.id as string;
    await eventually(async () => (await fetch(`${stack.base}/problems/${id}.json`)).status === 200, 30_000);
  });
});
