/**
 * Process shutdown, one rule for every entry file: SIGTERM/SIGINT drains
 * (stops accepting, finishes in-flight work) and exits 0. The drain is
 * bounded: whatever it waits for (a job stuck on a lock, a dependency that
 * does not answer), the process exits 1 before SHUTDOWN_GRACE_MS have
 * passed. Work cut there is not lost: a BullMQ job left active is retried
 * once its lock lapses (the stalled-job check), and a write's client
 * replays it with the same Idempotency-Key.
 *
 * Further signals change nothing. A child of `npm start` gets each signal
 * twice when its process group is signalled (once from the group, once
 * forwarded by the launcher, and npm forwards too): taken as "force", the
 * second cut the requests the first had promised to answer.
 */
import type { Logger } from './logger.ts';

/** Time kept at the end of the grace period for the exit itself (log lines written, sockets closed). */
const EXIT_MARGIN_MS = 500;

/** When a drain that has not finished is abandoned: `graceMs` less the exit's margin. */
export const drainDeadlineMs = (graceMs: number) => Math.max(graceMs / 2, graceMs - EXIT_MARGIN_MS);

export function onShutdownSignal(logger: Logger, what: string, drain: () => Promise<void>, graceMs: number): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal, graceMs }, `draining ${what}`);
      setTimeout(() => {
        logger.warn({ graceMs }, `shutdown grace period over; exiting with ${what} unfinished (they are retried)`);
        process.exit(1);
      }, drainDeadlineMs(graceMs)).unref();
      drain().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
