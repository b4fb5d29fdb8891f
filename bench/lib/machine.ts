/** The machine a run happened on, printed first and saved with each result. */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1, 5 and 15 minute load averages when the run started: other work shows here. */
  loadAverage: number[];
  node: string;
  os: string;
  nginx: string | null;
}

/** `nginx -v` prints "nginx version: nginx/1.22.1" on stderr. */
function nginxVersion(binary: string | null): string | null {
  if (!binary) return null;
  const out = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return out.stderr?.trim().replace(/^nginx version: /, '') || null;
}

export function describeMachine(nginxBinary: string | null): Machine {
  const cpus = os.cpus();
  const gib = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10;
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: gib(os.totalmem()),
    freeMemoryGiB: gib(os.freemem()),
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    nginx: nginxVersion(nginxBinary),
  };
}

export function formatMachine(m: Machine): string {
  return [
    `machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB memory (${m.freeMemoryGiB} GiB free), ${m.os}`,
    `node ${m.node}; ${m.nginx ?? 'nginx not installed'}; load average ${m.loadAverage.join(' / ')} at start`,
  ].join('\n');
}
