/**
 * Groups work that arrives one item at a time into batches: at most
 * `inFlight` batches run at once; items that arrive while they run wait and
 * go together into the next, up to `maxBatch`. An item that finds a free
 * slot starts at once, so a lone item waits for nothing, and under a stream
 * the batches grow with the stream. Each item gets its own outcome.
 */
export interface BatcherOptions {
  maxBatch: number;
  inFlight: number;
}

export interface Batcher<T, R> {
  /** The item's own outcome: what `run` settled it with, or the error `run` threw for the whole batch. */
  submit(item: T): Promise<R>;
}

interface Waiting<T, R> {
  item: T;
  resolve(value: R): void;
  reject(reason: unknown): void;
}

export function createBatcher<T, R>(
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>,
  { maxBatch, inFlight }: BatcherOptions,
): Batcher<T, R> {
  const waiting: Waiting<T, R>[] = [];
  let running = 0;
  const pump = () => {
    while (running < inFlight && waiting.length > 0) {
      const batch = waiting.splice(0, maxBatch);
      running++;
      run(batch.map((w) => w.item))
        .then(
          (outcomes) => {
            for (const [i, w] of batch.entries()) {
              const outcome = outcomes[i];
              if (!outcome) w.reject(new Error('the batch gave this item no outcome'));
              else if (outcome.status === 'fulfilled') w.resolve(outcome.value);
              else w.reject(outcome.reason);
            }
          },
          (error: unknown) => {
            for (const w of batch) w.reject(error);
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  };
  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        pump();
      });
    },
  };
}
