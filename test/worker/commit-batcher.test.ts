import { describe, expect, it } from 'vitest';
import { createBatcher } from '../../worker/commit-batcher.ts';

/** A batch runner the test finishes by hand, recording the batches it was given. */
function controlledRunner() {
  const batches: number[][] = [];
  const finishes: (() => void)[] = [];
  return {
    batches,
    run: (items: number[]) =>
      new Promise<PromiseSettledResult<number>[]>((resolve) => {
        batches.push(items);
        finishes.push(() =>
          resolve(
            items.map((n) =>
              n < 0 ? { status: 'rejected', reason: new Error(`bad ${n}`) } : { status: 'fulfilled', value: n * 10 },
            ),
          ),
        );
      }),
    finishNext() {
      finishes.shift()?.();
    },
  };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the commit batcher', () => {
  it('starts a lone item at once, and groups the items that arrive while the batches run', async () => {
    const runner = controlledRunner();
    const batcher = createBatcher(runner.run, { maxBatch: 3, inFlight: 1 });
    const first = batcher.submit(1);
    await turn();
    expect(runner.batches).toEqual([[1]]);
    const rest = [2, 3, 4, 5, 6].map((n) => batcher.submit(n));
    await turn();
    expect(runner.batches).toEqual([[1]]);
    runner.finishNext();
    expect(await first).toBe(10);
    await turn();
    expect(runner.batches).toEqual([[1], [2, 3, 4]]);
    runner.finishNext();
    await turn();
    expect(runner.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    runner.finishNext();
    expect(await Promise.all(rest)).toEqual([20, 30, 40, 50, 60]);
  });

  it('runs at most `inFlight` batches at once', async () => {
    const runner = controlledRunner();
    const batcher = createBatcher(runner.run, { maxBatch: 10, inFlight: 2 });
    const all = [1, 2, 3, 4].map((n) => batcher.submit(n));
    await turn();
    // The first two found a slot each; the others wait for one together.
    expect(runner.batches).toEqual([[1], [2], [3, 4]].slice(0, 2));
    runner.finishNext();
    await turn();
    expect(runner.batches).toEqual([[1], [2], [3, 4]]);
    runner.finishNext();
    runner.finishNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40]);
  });

  it("settles each item with its own outcome: one item's failure fails no other", async () => {
    const runner = controlledRunner();
    const batcher = createBatcher(runner.run, { maxBatch: 10, inFlight: 1 });
    const blocker = batcher.submit(0);
    const items = [batcher.submit(1), batcher.submit(-2), batcher.submit(3)];
    await turn();
    runner.finishNext();
    await blocker;
    await turn();
    runner.finishNext();
    const settled = await Promise.allSettled(items);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('fails every item of a batch whose run throws, and goes on with the next', async () => {
    let calls = 0;
    const batcher = createBatcher<number, number>(
      async (items) => {
        calls++;
        if (calls === 1) throw new Error('database away');
        return items.map((n) => ({ status: 'fulfilled', value: n }));
      },
      { maxBatch: 10, inFlight: 1 },
    );
    await expect(batcher.submit(1)).rejects.toThrow('database away');
    expect(await batcher.submit(2)).toBe(2);
  });
});
