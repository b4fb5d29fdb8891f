/**
 * Supervision of `npm start`'s children. A child that exits on its own is
 * restarted after a backoff that doubles from RESTART_BACKOFF_MS (capped at
 * 30 s, reset after a minute of running), each restart logged; past
 * RESTART_MAX_PER_MINUTE restarts in a minute the child is considered broken
 * and the whole service stops with its exit code, so an outer supervisor
 * (systemd, a container runtime) sees the failure. A worker crash no longer
 * takes the API down with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SupervisorOptions {
  backoffMs: number;
  maxPerMinute: number;
  /** After a stop, how long children have to exit before they are killed (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Called once when a child gave up or every child stopped after a signal. */
  onStopped: (exitCode: number) => void;
}

const MAX_BACKOFF_MS = 30_000;
const MINUTE_MS = 60_000;
/** Killed children are gone and the launcher has exited within this much. */
const KILL_MARGIN_MS = 200;

export function superviseChildren(entries: string[], options: SupervisorOptions) {
  const children = new Map<string, ChildProcess>();
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  let stopped = false;
  let exitCode = 0;

  /** Reports the end once, when every child has exited after a stop. */
  function reportIfAllExited() {
    if (stopped || ![...children.values()].every((c) => c.exitCode !== null || c.signalCode !== null)) return;
    stopped = true;
    options.onStopped(exitCode);
  }

  function stopAll(signal: NodeJS.Signals) {
    // Once: a repeated signal (the process group's and npm's) is not forwarded again.
    if (stopping) return;
    stopping = true;
    // Children bound their own drain; this is the last resort, just before the grace period ends.
    setTimeout(
      () => {
        for (const child of children.values()) {
          if (child.exitCode !== null || child.signalCode !== null) continue;
          options.log(`launcher: ${child.spawnargs.at(-1)} still running at the end of the grace period; killing it`);
          child.kill('SIGKILL');
        }
      },
      Math.max(0, options.graceMs - KILL_MARGIN_MS),
    ).unref();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    reportIfAllExited();
  }

  function run(entry: string, restarts: number[], backoffMs: number) {
    const child = spawn(process.execPath, [entry], { stdio: 'inherit', env: options.env });
    const startedAt = Date.now();
    children.set(entry, child);
    options.log(`launcher: ${entry} started (pid ${child.pid})`);
    child.on('exit', (code, signal) => {
      if (stopping) return reportIfAllExited();
      const now = Date.now();
      const recent = restarts.filter((at) => now - at < MINUTE_MS);
      if (recent.length >= options.maxPerMinute) {
        options.log(
          `launcher: ${entry} exited (${signal ?? `code ${code}`}) ${recent.length + 1} times within a minute; stopping the service`,
        );
        exitCode = code || 1;
        stopAll('SIGTERM');
        return;
      }
      // A child that ran a full minute starts over from the shortest backoff.
      const delay = now - startedAt >= MINUTE_MS ? options.backoffMs : backoffMs;
      options.log(`launcher: ${entry} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        run(entry, [...recent, Date.now()], Math.min(delay * 2, MAX_BACKOFF_MS));
      }, delay);
      timers.add(timer);
    });
  }

  for (const entry of entries) run(entry, [], options.backoffMs);
  return { stopAll };
}
