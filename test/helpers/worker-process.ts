/**
 * The worker (or the API) as a real child process (`node worker/main.ts`,
 * `node api/server.ts`), as production runs it, so a test can SIGKILL it at
 * any moment and start another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reap } from './reaper.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface WorkerProcess {
  /** Starts the process and waits for its ready line ("worker started", "api listening") to be in the log file. */
  start(): Promise<void>;
  /** SIGKILL: no drain, no cleanup; whatever was in flight is cut. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful path. */
  stop(): Promise<void>;
  readonly running: boolean;
  /** How many worker processes were started. */
  readonly starts: number;
  /** Exits nobody asked for (a crash), with the end of the log. */
  readonly crashes: string[];
  /** Log lines (JSON) of every worker started so far, one file for all. */
  readonly logFile: string;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function createWorkerProcess(env: Record<string, string>, logFile: string): WorkerProcess {
  return createServiceProcess('worker/main.ts', 'worker started', env, logFile);
}

/** One of the service's entry points (relative to the repository) as a child process; `ready` is the log message it prints once serving. */
export function createServiceProcess(
  entry: string,
  ready: string,
  env: Record<string, string>,
  logFile: string,
  startTimeoutMs = 60_000,
): WorkerProcess {
  const MAIN = path.join(ROOT, entry);
  const name = path.basename(path.dirname(entry)) === 'worker' ? 'worker' : entry;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let starts = 0;
  /** Processes this helper signalled: their exit is no crash. */
  const signalled = new WeakSet<ChildProcess>();
  const crashes: string[] = [];
  const recent: string[] = [];
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });

  const waitForExit = async (signal: NodeJS.Signals) => {
    if (!child) return;
    signalled.add(child);
    child.kill(signal);
    await exited;
  };

  return {
    get running() {
      return child !== null;
    },
    get starts() {
      return starts;
    },
    crashes,
    logFile,
    async start() {
      if (child) throw new Error(`${name} is already running`);
      starts++;
      const proc = spawn(process.execPath, [MAIN], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      live.add(proc);
      const unreap = reap({ kind: 'pid', target: String(proc.pid), marker: MAIN });
      exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      // 'close' comes after the last output, so the crash report has the stack.
      proc.once('close', (code, signal) => {
        if (!signalled.has(proc)) crashes.push(`${name} exited by itself (${code ?? signal}):\n${recent.join('')}`);
      });
      void exited.then(() => {
        unreap();
        live.delete(proc);
        if (child === proc) child = null;
      });
      const keep = (chunk: Buffer) => {
        recent.push(chunk.toString());
        while (recent.length > 20) recent.shift();
      };
      proc.stderr!.on('data', (chunk: Buffer) => {
        log.write(chunk);
        keep(chunk);
      });
      let buffered = '';
      const started = new Promise<void>((resolve, reject) => {
        proc.stdout!.on('data', (chunk: Buffer) => {
          keep(chunk);
          buffered = (buffered + chunk.toString()).slice(-10_000);
          const isReady = buffered.includes(`"msg":"${ready}"`);
          // Resolve once the ready line is in the log file, so a caller may read it there.
          log.write(chunk, () => {
            if (isReady) resolve();
          });
        });
        proc.once('exit', (code, signal) =>
          reject(new Error(`${name} exited (${code ?? signal}) before it started; see ${logFile}`)),
        );
      });
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${name} did not start in ${startTimeoutMs / 1000} s; see ${logFile}`)),
          startTimeoutMs,
        ).unref(),
      );
      await Promise.race([started, timeout]);
    },
    kill: () => waitForExit('SIGKILL'),
    stop: () => waitForExit('SIGTERM'),
  };
}
