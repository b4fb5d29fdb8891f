/**
 * What run.ts hands each bench: the machine, a migrated template database,
 * and starters for a stack and nginx that are cleaned up after the bench.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx, type Nginx } from '../../test/helpers/nginx.ts';
import { startStack, type Stack } from '../../test/helpers/stack.ts';
import type { Machine } from './machine.ts';

/** Limits high enough that a bench measures the work, not the rate limiter saying no. */
const BENCH_SETTINGS: Record<string, string> = {
  READ_RATE_LIMIT: '1000000000',
  WRITE_RATE_LIMIT: '1000000000',
  ADMISSION_RATE_LIMIT: '1000000',
  // Logging stays on, as deployed: one line per request, to a file.
  LOG_LEVEL: 'info',
};

export interface BenchContext {
  machine: Machine;
  /** The migrated database each stack clones. */
  templateDatabase: string;
  /**
   * The API and (unless `worker: false`) a worker in this process, on a fresh
   * clone of the template (or of `templateDatabase`, e.g. a seeded
   * database), with a temporary projections directory (unless the overrides
   * name one). Closed after the bench.
   */
  startStack(
    overrides?: Record<string, string>,
    options?: { worker?: boolean; templateDatabase?: string },
  ): Promise<Stack>;
  /** A file in the bench's own temporary directory (removed afterwards). */
  tempFile(name: string): string;
  /** nginx with deploy/nginx/agent-knowledge.conf in front of `stack`. Stopped after the bench. */
  startNginx(stack: Stack): Promise<Nginx>;
  /** Runs `fn` after the bench (last registered first), whether it passed or threw. */
  defer(fn: () => Promise<unknown> | unknown): void;
  /** A progress line, indented under the bench's heading. */
  log(line: string): void;
}

export function createBenchContext(
  machine: Machine,
  templateDatabase: string,
): { ctx: BenchContext; cleanup(): Promise<void> } {
  const deferred: (() => Promise<unknown> | unknown)[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'ak-bench-'));
  deferred.push(() => rm(dir, { recursive: true, force: true }));
  const ctx: BenchContext = {
    machine,
    templateDatabase,
    tempFile: (name) => path.join(dir, name),
    async startStack(overrides = {}, options = {}) {
      const stack = await startStack(
        { ...BENCH_SETTINGS, ...overrides },
        {
          ...options,
          templateDatabase: options.templateDatabase ?? templateDatabase,
          logFile: path.join(dir, 'service.log'),
        },
      );
      deferred.push(() => stack.close());
      return stack;
    },
    async startNginx(stack) {
      const nginx = await startNginx({
        AK_UPSTREAM: `127.0.0.1:${stack.api.port}`,
        AK_PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
        AK_CLIENT_DIR: path.resolve(stack.config.ASTRO_CLIENT_DIR),
      });
      deferred.push(() => nginx.close());
      return nginx;
    },
    defer(fn) {
      deferred.push(fn);
    },
    log(line) {
      console.log(`  ${line}`);
    },
  };
  return {
    ctx,
    async cleanup() {
      for (const fn of deferred.reverse()) {
        await Promise.resolve()
          .then(fn)
          .catch((error: unknown) => console.error(`  cleanup failed: ${String(error)}`));
      }
      deferred.length = 0;
    },
  };
}
