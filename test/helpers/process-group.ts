/**
 * The service as several processes on one machine, as a deployment over
 * several machines runs it: API processes (`node api/server.ts`), commit
 * workers and render workers (`node worker/main.ts` with WORKER_ROLES), each
 * its own child process, behind one nginx with a `server` line per API. They
 * share the database, Redis (one QUEUE_PREFIX) and the projections folder the
 * caller names in `shared`. Any process can be SIGKILLed and started again; an
 * API comes back on its own port, so nginx finds it there.
 */
import path from 'node:path';
import { freePort } from './ports.ts';
import { startNginx, type Nginx } from './nginx.ts';
import { createServiceProcess, type WorkerProcess } from './worker-process.ts';

export interface GroupProcess {
  /** e.g. "api 1", "commit worker 2". */
  name: string;
  role: 'api' | 'commit' | 'render';
  process: WorkerProcess;
  /** For an API: its own address, bypassing nginx. */
  base: string | null;
}

export interface ProcessGroup {
  /** nginx's address: what clients use. */
  base: string;
  nginx: Nginx;
  processes: GroupProcess[];
  apis: GroupProcess[];
  /** Exits nobody asked for, by process. */
  crashes(): string[];
  close(): Promise<void>;
}

export interface GroupSize {
  apis: number;
  commitWorkers: number;
  renderWorkers: number;
}

/**
 * Starts the group. `shared` is what every process gets (DATABASE_URL,
 * REDIS_URL, QUEUE_PREFIX, PROJECTIONS_DIR, limits …); `dir` receives one
 * log file per process. The database must be migrated already.
 */
export async function startProcessGroup(
  shared: Record<string, string>,
  size: GroupSize,
  dir: string,
  clientDir: string,
): Promise<ProcessGroup> {
  // nginx is the one proxy in front, as the deployment docs set it.
  const env = { TRUSTED_PROXY_HOPS: '1', ...shared };
  const processes: GroupProcess[] = [];
  let nginx: Nginx | null = null;
  const close = async () => {
    await nginx?.close();
    // SIGTERM: each drains what it holds, as a deployment's shutdown does.
    await Promise.all(processes.map((p) => p.process.stop()));
  };
  try {
    for (let i = 1; i <= size.apis; i++) {
      const port = await freePort();
      const process = createServiceProcess(
        'api/server.ts',
        'api listening',
        { ...env, PORT: String(port) },
        path.join(dir, `api-${i}.log`),
      );
      processes.push({ name: `api ${i}`, role: 'api', process, base: `http://127.0.0.1:${port}` });
    }
    for (const [role, count] of [
      ['commit', size.commitWorkers],
      ['render', size.renderWorkers],
    ] as const) {
      for (let i = 1; i <= count; i++) {
        // A render worker is "started" once it has rendered the backlog a kill left, which under load takes a while.
        const process = createServiceProcess(
          'worker/main.ts',
          'worker started',
          { ...env, WORKER_ROLES: role },
          path.join(dir, `${role}-${i}.log`),
          150_000,
        );
        processes.push({ name: `${role} worker ${i}`, role, process, base: null });
      }
    }
    // One at a time: on a loaded machine six cold starts at once can outlast a start's timeout.
    for (const p of processes) await p.process.start();
    const apis = processes.filter((p) => p.role === 'api');
    const [first, ...more] = apis.map((p) => new URL(p.base!).host);
    nginx = await startNginx(
      { AK_UPSTREAM: first!, AK_PROJECTIONS_DIR: shared.PROJECTIONS_DIR!, AK_CLIENT_DIR: clientDir },
      { moreUpstreams: more },
    );
    return {
      base: nginx.base,
      nginx,
      processes,
      apis,
      crashes: () => processes.flatMap((p) => p.process.crashes.map((c) => `${p.name}: ${c}`)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
