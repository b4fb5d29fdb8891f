/**
 * A closed loop: `concurrency` workers each run one operation after another
 * until `seconds` pass or `max` operations have started. Latency is recorded
 * per successful operation; failures are counted by their message.
 */
export interface LoopLimits {
  concurrency: number;
  seconds: number;
  max: number;
}

export interface LoopResult {
  completed: number;
  failed: Record<string, number>;
  seconds: number;
  /** Milliseconds, one per completed operation. */
  latenciesMs: number[];
  perSecond: number;
}

export async function runClosedLoop(limits: LoopLimits, operation: (i: number) => Promise<void>): Promise<LoopResult> {
  const latenciesMs: number[] = [];
  const failed: Record<string, number> = {};
  const started = performance.now();
  const until = started + limits.seconds * 1000;
  let next = 0;
  const lane = async () => {
    while (next < limits.max && performance.now() < until) {
      const i = next++;
      const t0 = performance.now();
      try {
        await operation(i);
        latenciesMs.push(performance.now() - t0);
      } catch (error) {
        const key = error instanceof Error ? error.message.slice(0, 120) : String(error);
        failed[key] = (failed[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: limits.concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  return { completed: latenciesMs.length, failed, seconds, latenciesMs, perSecond: latenciesMs.length / seconds };
}
