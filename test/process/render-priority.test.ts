/**
 * A render worker lowers its own scheduling priority (RENDER_WORKER_NICE), so
 * on shared cores a receipt never waits for CPU behind a render; a commit
 * worker keeps the priority it was started with.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.ts';
import { createWorkerProcess, type WorkerProcess } from '../helpers/worker-process.ts';

let stack: Stack;
let logDir: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  logDir = await mkdtemp(path.join(tmpdir(), 'ak-render-priority-'));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await stack.close();
  await rm(logDir, { recursive: true, force: true });
});

/** Starts a worker of `role` and answers its nice value, read from the kernel. */
async function niceOf(role: 'commit' | 'render', extra: Record<string, string> = {}): Promise<number> {
  const logFile = path.join(logDir, `${role}-${workers.length}.log`);
  const worker = createWorkerProcess(
    {
      DATABASE_URL: stack.config.DATABASE_URL!,
      REDIS_URL: stack.config.REDIS_URL!,
      QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
      PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
      LOG_LEVEL: 'info',
      WORKER_ROLES: role,
      ...extra,
    },
    logFile,
  );
  workers.push(worker);
  await worker.start();
  const started = (await readFile(logFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; pid: number })
    .find((entry) => entry.msg === 'worker started')!;
  // /proc/<pid>/stat: the name in parentheses, then fields from the state on; nice is field 19.
  const stat = await readFile(`/proc/${started.pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

it('a render worker runs at RENDER_WORKER_NICE, a commit worker at the priority it was given', async () => {
  const own = getPriority();
  expect(await niceOf('render')).toBe(Math.max(own, 10));
  expect(await niceOf('render', { RENDER_WORKER_NICE: '15' })).toBe(Math.max(own, 15));
  expect(await niceOf('render', { RENDER_WORKER_NICE: '0' })).toBe(own);
  expect(await niceOf('commit')).toBe(own);
}, 120_000);
