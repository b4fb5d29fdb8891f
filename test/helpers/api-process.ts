/**
 * The API as a real child process (`node api/server.ts`), as production runs
 * it: several of them on one database, one Redis prefix and one projections
 * directory are several API processes behind a balancer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.ts';
import { reap } from './reaper.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = path.join(ROOT, 'api/server.ts');

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const unreap = reap({ kind: 'pid', target: String(child.pid), marker: MAIN });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      unreap();
      resolve(code);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api/server.ts exited (${child.exitCode}) before it listened`);
    if (
      await fetch(`${base}/api/v1`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error('api/server.ts did not listen in 60 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
