/**
 * Process shutdown, one rule for every entry file: the first SIGTERM/SIGINT
 * drains (stops accepting, finishes in-flight work) and exits 0; a second
 * signal forces an exit 1.
 */
import type { Logger } from './logger.ts';

export function onShutdownSignal(logger: Logger, what: string, drain: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, `draining ${what}`);
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
