/**
 * A task asked for often whose later run does everything an earlier one
 * would (the sitemap catching up with the change log): requests made while a
 * run is waiting or running cost nothing, and runs start at most once per
 * `intervalMs`. A request always gets a run that starts after it.
 */
export interface CoalescedRun {
  /** Asks for a run soon; never throws (a failed run is reported to `onError`). */
  request(): void;
  /** Runs now if a run was asked for or `force`, after the one in flight; resolves when done, rejects if that run fails. */
  flush(force?: boolean): Promise<void>;
  /** Cancels a waiting run and waits for the one in flight. */
  close(): Promise<void>;
}

export function createCoalescedRun(
  run: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): CoalescedRun {
  let lastStart = -Infinity;
  let wanted = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;

  const cancelTimer = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  const start = (): Promise<void> => {
    cancelTimer();
    wanted = false;
    lastStart = performance.now();
    const current = (async function runCoalesced() {
      await run();
    })().finally(() => {
      running = null;
      // Asked for while running: the run may have read the log before that request.
      if (wanted) schedule();
    });
    running = current;
    return current;
  };

  function schedule(): void {
    if (closed || timer || running) return;
    const wait = Math.max(0, lastStart + intervalMs - performance.now());
    timer = setTimeout(() => {
      timer = null;
      start().catch(onError);
    }, wait);
    timer.unref();
  }

  return {
    request() {
      wanted = true;
      schedule();
    },
    async flush(force = false) {
      while (running) await running.catch(() => {});
      if ((wanted || force) && !closed) await start();
    },
    async close() {
      closed = true;
      cancelTimer();
      while (running) await running.catch(() => {});
    },
  };
}
