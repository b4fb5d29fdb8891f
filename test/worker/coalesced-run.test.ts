import { describe, expect, it } from 'vitest';
import { createCoalescedRun } from '../../worker/coalesced-run.ts';

/** A run the test finishes by hand, counting how many started. */
function controlledRun() {
  const finishes: (() => void)[] = [];
  let started = 0;
  return {
    get started() {
      return started;
    },
    run: () =>
      new Promise<void>((resolve) => {
        started++;
        finishes.push(resolve);
      }),
    finishNext() {
      finishes.shift()?.();
    },
  };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a coalesced run (the sitemap update after render passes)', () => {
  it('runs once for many requests made before it starts', async () => {
    const task = controlledRun();
    const runner = createCoalescedRun(task.run, 0, (e) => {
      throw e;
    });
    for (let i = 0; i < 50; i++) runner.request();
    await turn();
    expect(task.started).toBe(1);
    task.finishNext();
    await runner.close();
    expect(task.started).toBe(1);
  });

  it('runs again after the one in flight for requests made while it ran, never two at once', async () => {
    const task = controlledRun();
    const runner = createCoalescedRun(task.run, 0, (e) => {
      throw e;
    });
    runner.request();
    await turn();
    runner.request();
    runner.request();
    await turn();
    expect(task.started).toBe(1);
    task.finishNext();
    await turn();
    await turn();
    expect(task.started).toBe(2);
    task.finishNext();
    await runner.close();
    expect(task.started).toBe(2);
  });

  it('flush runs what was asked for now, and a forced flush runs even when nothing was', async () => {
    const task = controlledRun();
    const runner = createCoalescedRun(task.run, 60_000, (e) => {
      throw e;
    });
    const flushed = runner.flush(true);
    await turn();
    expect(task.started).toBe(1);
    task.finishNext();
    await flushed;
    // The interval holds the next request back; flush does not wait for it.
    runner.request();
    await turn();
    expect(task.started).toBe(1);
    const second = runner.flush();
    await turn();
    expect(task.started).toBe(2);
    task.finishNext();
    await second;
    await runner.flush();
    expect(task.started).toBe(2);
    await runner.close();
  });

  it('reports a failed run and runs again on the next request', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const runner = createCoalescedRun(
      async () => {
        calls++;
        if (calls === 1) throw new Error('database away');
      },
      0,
      (e) => errors.push(e),
    );
    runner.request();
    await turn();
    await turn();
    expect(errors).toHaveLength(1);
    runner.request();
    await runner.flush();
    expect(calls).toBe(2);
    await runner.close();
  });
});
