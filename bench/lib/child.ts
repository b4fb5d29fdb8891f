/**
 * Load generators run in their own process, so they do not share an event
 * loop (or a core's time slices, as far as the OS allows) with the service
 * they measure. A child gets its arguments as JSON in BENCH_ARGS and prints
 * its result as one JSON document on stdout.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export async function runNodeChild<T>(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<T> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(killer);
  if (code !== 0) throw new Error(`${script} exited with ${code ?? 'a signal (timed out?)'}`);
  return JSON.parse(stdout) as T;
}

/** Runs a bench client from bench/clients/ with its arguments. */
export function runClient<T>(name: string, args: unknown, timeoutMs: number): Promise<T> {
  const script = fileURLToPath(new URL(`../clients/${name}.ts`, import.meta.url));
  return runNodeChild<T>(script, [], { BENCH_ARGS: JSON.stringify(args) }, timeoutMs);
}

/** In a client: its arguments. */
export function clientArgs<T>(): T {
  const raw = process.env.BENCH_ARGS;
  if (!raw) throw new Error('BENCH_ARGS is not set: run this through bench/run.ts');
  return JSON.parse(raw) as T;
}
