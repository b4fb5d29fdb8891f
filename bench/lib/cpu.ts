/**
 * Where the machine's CPU goes during one stretch of load, by process:
 * summed from /proc/<pid>/stat (user + system time) of every process, each
 * put in a group by `classify`. Processes that exit during the stretch (a
 * load client, pgbench's backends) are counted up to the last sample, so
 * the sampler reads every `everyMs` while it runs. Linux only: elsewhere it
 * reports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc reports CPU time in these ticks (100 on every Linux we run on). */
const TICK_MS = 10;

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** argv joined by spaces ("postgres: 15/main: postgres <db> 127.0.0.1(…) idle" for a backend). */
  cmdline: string;
  /** The process's environment, read only when `classify` asks (own user's processes only). */
  env(): Record<string, string>;
}

/** A group name, or null to leave the process out. */
export type Classify = (p: ProcessInfo) => string | null;

export interface CpuSampler {
  /** CPU milliseconds per group since `start` (what each process used in that time). */
  stop(): Record<string, number>;
}

const environments = new Map<number, Record<string, string>>();

function environmentOf(pid: number): Record<string, string> {
  let env = environments.get(pid);
  if (env) return env;
  try {
    env = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    env = {};
  }
  environments.set(pid, env);
  return env;
}

interface Reading {
  ticks: number;
  info: ProcessInfo;
}

/** User + system ticks and parent of `pid`, or null when it is gone or not ours to read. */
function readStat(pid: number): { ticks: number; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

function readCmdline(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return null;
  }
}

/**
 * Every process's ticks; its command line is read again only when it is new
 * or used CPU since `previous` (a forked PostgreSQL backend names itself after
 * the fork, and only a process that runs can rename itself). The sampler runs
 * in the API's process, whose CPU the bench reports: reading two files of
 * every process four times a second cost about 1 ms of that CPU per write.
 */
function snapshot(previous?: Map<number, Reading>): Map<number, Reading> {
  const out = new Map<number, Reading>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name));
  } catch {
    return out;
  }
  for (const name of pids) {
    const pid = Number(name);
    const stat = readStat(pid);
    if (!stat) continue;
    const before = previous?.get(pid);
    if (before && before.ticks === stat.ticks) {
      out.set(pid, { ticks: stat.ticks, info: before.info });
      continue;
    }
    const cmdline = readCmdline(pid);
    if (cmdline === null) continue;
    out.set(pid, { ticks: stat.ticks, info: { pid, ppid: stat.ppid, cmdline, env: () => environmentOf(pid) } });
  }
  return out;
}

export function startCpuSampler(classify: Classify, everyMs = 250): CpuSampler {
  const first = snapshot();
  /**
   * The last reading of each process seen since the start; each is put in its
   * group at the end (a database backend is named by its connection's
   * application_name, which may be learnt after it started).
   */
  const last = new Map<number, Reading>(first);
  /** The sampler's own CPU, taken out of its process's group and shown as its own. */
  let ownMicros = 0;
  const take = () => {
    const started = process.cpuUsage();
    for (const [pid, reading] of snapshot(last)) last.set(pid, reading);
    const used = process.cpuUsage(started);
    ownMicros += used.user + used.system;
  };
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      const ms: Record<string, number> = {};
      for (const [pid, { ticks, info }] of last) {
        const group = classify(info);
        if (group === null) continue;
        const before = first.get(pid)?.ticks ?? 0;
        ms[group] = (ms[group] ?? 0) + (ticks - before) * TICK_MS;
      }
      const own = last.get(process.pid);
      const ownGroup = own ? classify(own.info) : null;
      if (ownGroup !== null && ms[ownGroup] !== undefined) {
        const ownMs = Math.min(ms[ownGroup], ownMicros / 1000);
        ms[ownGroup] -= ownMs;
        ms['cpu sampler (this bench)'] = ownMs;
      }
      return ms;
    },
  };
}

/**
 * The groups of the write benches: this process (the API), the worker
 * processes by role, the load client, PostgreSQL's backends on `database`,
 * its background processes and Redis (both shared with anything else on the
 * machine), pgbench, and everything else.
 */
export function serviceGroups(
  database: string,
  applicationOf: (pid: number) => string | undefined = () => undefined,
): Classify {
  const backend = new RegExp(`^postgres: [^:]+: (?:autovacuum worker )?\\S* ?${database}( |$)`);
  return (p) => {
    if (p.pid === process.pid) return 'api';
    if (p.cmdline.includes('worker/main.ts')) return `${p.env().WORKER_ROLES ?? 'all'} worker`;
    if (p.cmdline.includes('bench/clients/')) return 'load client';
    if (backend.test(p.cmdline)) {
      const application = applicationOf(p.pid);
      return application ? `postgres for ${application}` : 'postgres';
    }
    // The server's own processes (WAL writer, checkpointer, …) work for every database on it.
    if (
      /(^|\/)postgres -D|^postgres: [^:]+: (?:walwriter|checkpointer|background writer|autovacuum launcher|logical replication launcher)/.test(
        p.cmdline,
      )
    ) {
      return 'postgres background';
    }
    if (p.cmdline.startsWith('postgres: ')) return 'postgres, other databases';
    if (/pagefind/.test(p.cmdline)) return 'pagefind (static search index)';
    if (/redis-server/.test(p.cmdline)) return 'redis';
    if (/(^|\/)pgbench /.test(p.cmdline)) return 'pgbench client';
    return 'other';
  };
}
