/**
 * Where a process's log lines go (stdout, or a file), written in batches.
 *
 * pino's default destination (sonic-boom, synchronous) makes one write(2) per
 * line, and sonic-boom measures its whole pending string with
 * `Buffer.byteLength` on every line: about 3 µs a line, under load a tenth of
 * what a cached read costs (bench/HISTORY.md). Here a line is appended to an
 * array; the lines go out in one synchronous write when `maxBytes` have
 * gathered or `flushMs` after the first of them, whichever comes first.
 *
 * Nothing is lost on a shutdown: every entry file ends with `process.exit`
 * after its drain (infra/shutdown.ts), and an uncaught exception exits too;
 * both run the 'exit' handler, which writes what is left. What a SIGKILL or
 * the OOM killer can take is at most the last `flushMs` of lines.
 *
 * Writes stay synchronous, as pino's were (one per batch now): lines keep
 * their order, and a full pipe slows the process instead of growing memory.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface LogDestination {
  /** A line as pino hands it over (JSON and a newline). */
  write(line: string): void;
  /** Writes every pending line now. */
  flushSync(): void;
  /** pino's `logger.flush(cb)`. */
  flush(cb?: (error?: Error) => void): void;
  /** Writes what is pending and stops (closes the file if it opened one). */
  close(): void;
}

export interface LogDestinationOptions {
  maxBytes?: number;
  flushMs?: number;
}

const DEFAULTS = { maxBytes: 64 * 1024, flushMs: 100 };
/** How long to wait before trying a non-blocking pipe again when it is full. */
const EAGAIN_WAIT_MS = 10;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Lines to `target`: a file descriptor (1 for stdout), or a file path, appended to. */
export function createLogDestination(target: number | string, options: LogDestinationOptions = {}): LogDestination {
  const { maxBytes, flushMs } = { ...DEFAULTS, ...options };
  const ownFd = typeof target === 'string';
  const fd = ownFd ? openSync(target, 'a') : target;
  let pending: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let failed = false;

  function writeAll(data: Buffer) {
    for (let offset = 0; offset < data.length; ) {
      try {
        offset += writeSync(fd, data, offset);
      } catch (error) {
        // A non-blocking pipe that is full: wait for the reader, as pino's own destination does.
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(sleeper, 0, 0, EAGAIN_WAIT_MS);
          continue;
        }
        // A log that cannot be written must not take the service down with it; say so once.
        if (!failed) {
          failed = true;
          try {
            writeSync(2, `log destination: ${(error as Error).message}; log lines are being dropped\n`);
          } catch {
            /* nowhere left to say it */
          }
        }
        return;
      }
    }
  }

  function flushSync() {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return;
    const data = Buffer.from(pending.length === 1 ? pending[0]! : pending.join(''));
    pending = [];
    size = 0;
    writeAll(data);
  }

  const onExit = () => flushSync();
  process.on('exit', onExit);

  return {
    write(line) {
      if (closed) return;
      pending.push(line);
      size += line.length;
      if (size >= maxBytes) flushSync();
      else if (!timer) {
        timer = setTimeout(flushSync, flushMs);
        // A pending flush must not keep a process alive; 'exit' writes the rest.
        timer.unref();
      }
    },
    flushSync,
    flush(cb) {
      flushSync();
      cb?.();
    },
    close() {
      if (closed) return;
      flushSync();
      closed = true;
      process.off('exit', onExit);
      if (ownFd) closeSync(fd);
    },
  };
}

let stdout: LogDestination | null = null;

/** The process's stdout destination: one for all its loggers, so their lines stay in order. */
export function stdoutDestination(): LogDestination {
  stdout ??= createLogDestination(1);
  return stdout;
}
