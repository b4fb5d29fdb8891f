/**
 * Private Redis and PostgreSQL servers for fault tests. Each runs on a free
 * port from its own temporary directory, as the `postgres` user when the
 * tests run as root (PostgreSQL refuses root), so a test can kill and restart
 * it at will. The shared servers other test runs use are never touched.
 *
 * `runuser` stays as the parent of the server it starts, so signals go to the
 * server's own pid (from its pid file), not to `runuser`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdir, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { reap } from './reaper.ts';

const asRoot = process.getuid?.() === 0;

/** The `postgres` user's uid and gid, when the tests run as root. */
function serviceUser(): { uid: number; gid: number } | null {
  if (!asRoot) return null;
  const out = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim();
  return { uid: Number(out('-u')), gid: Number(out('-g')) };
}

function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('no PostgreSQL server binaries found; set PG_BIN');
  return path.join(root, versions[0], 'bin');
}

/** A command line run as the service user (via runuser when root). */
function asServiceUser(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function serviceDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const user = serviceUser();
  if (user) await chown(dir, user.uid, user.gid);
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${ms} ms`);
    await sleep(50);
  }
}

/** Every live server of this process, killed on exit even when a test fails hard. */
const live = new Set<() => void>();
process.once('exit', () => {
  for (const kill of live) kill();
});

/**
 * One server process: started through runuser, signalled by the pid in its
 * pid file, awaited until the `runuser` parent has exited too.
 */
class ServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly command: string;
  private readonly args: string[];
  private readonly logFile: string;
  private readonly readPid: () => number | null;
  private readonly killOnExit = () => {
    const pid = this.readPid();
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.child?.kill('SIGKILL');
  };

  constructor(command: string, args: string[], logFile: string, readPid: () => number | null) {
    this.command = command;
    this.args = args;
    this.logFile = logFile;
    this.readPid = readPid;
  }

  get running(): boolean {
    return this.child !== null;
  }

  spawn(): void {
    if (this.child) throw new Error('already running');
    const log = openSync(this.logFile, 'a');
    const [command, args] = asServiceUser(this.command, this.args);
    const child = spawn(command, args, { stdio: ['ignore', log, log] });
    closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => {
      if (this.child === child) this.child = null;
      live.delete(this.killOnExit);
    });
    live.add(this.killOnExit);
  }

  /** Sends `signal` to the server itself and waits until it (and runuser) exited. */
  async signal(signal: NodeJS.Signals, waitMs = 30_000): Promise<void> {
    if (!this.child) return;
    const pid = this.readPid();
    if (pid) process.kill(pid, signal);
    else this.child.kill(signal);
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), waitMs).unref());
    if ((await Promise.race([this.exited, timer])) === 'timeout') {
      this.killOnExit();
      await this.exited;
    }
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Starts the server (again) and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills the server with SIGKILL: no persistence is configured, so every key is gone. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

async function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    let answer = '';
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await serviceDir('ak-faults-redis-');
  const port = await freePort();
  const pidFile = path.join(dir, 'redis.pid');
  const readPid = () => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || null;
    } catch {
      return null;
    }
  };
  const server = new ServerProcess(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--dir',
      dir,
      '--pidfile',
      pidFile,
    ],
    path.join(dir, 'redis.log'),
    readPid,
  );
  // Redis names itself "redis-server 127.0.0.1:<port>" in its command line.
  const unreap = [
    reap({ kind: 'pidfile', target: pidFile, marker: `127.0.0.1:${port}` }),
    reap({ kind: 'dir', target: dir }),
  ];
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      rmSync(pidFile, { force: true });
      server.spawn();
      await until('private redis', 30_000, async () => (await redisPing(port)) && readPid() !== null);
    },
    async kill() {
      await server.signal('SIGKILL');
      // Killed, it leaves its pid file; a stale pid must not be signalled later.
      rmSync(pidFile, { force: true });
    },
    async destroy() {
      await redis.kill();
      rmSync(dir, { recursive: true, force: true });
      for (const fn of unreap) fn();
    },
  };
  await redis.start();
  return redis;
}

export interface PrivatePostgres {
  port: number;
  /** A connection URL for database `name` on this server. */
  url(name: string): string;
  start(): Promise<void>;
  /**
   * Stops the server: `immediate` (SIGQUIT) is a crash as far as clients are
   * concerned (no clean disconnect, WAL recovery at the next start); `fast`
   * (SIGINT) terminates sessions and checkpoints.
   */
  stop(mode: 'immediate' | 'fast'): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dir = await serviceDir('ak-faults-pg-');
  const data = path.join(dir, 'data');
  const port = await freePort();
  const [initdb, initArgs] = asServiceUser(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const socketDir = path.join(dir, 'socket');
  await mkdir(socketDir);
  const user = serviceUser();
  if (user) await chown(socketDir, user.uid, user.gid);
  const readPid = () => {
    try {
      return Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
    } catch {
      return null;
    }
  };
  const server = new ServerProcess(
    path.join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    path.join(dir, 'postgres.log'),
    readPid,
  );
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const unreap = [
    reap({ kind: 'pidfile', target: path.join(data, 'postmaster.pid'), marker: data }),
    reap({ kind: 'dir', target: dir }),
  ];
  const postgres: PrivatePostgres = {
    port,
    url,
    async start() {
      server.spawn();
      await until('private postgres', 60_000, async () => {
        const client = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 1000 });
        client.on('error', () => {});
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } finally {
          await client.end().catch(() => {});
        }
      });
    },
    async stop(mode) {
      await server.signal(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT', 60_000);
    },
    async destroy() {
      // Immediate shutdown takes the backends with it (SIGKILL only if it hangs).
      await server.signal('SIGQUIT', 10_000);
      rmSync(dir, { recursive: true, force: true });
      for (const fn of unreap) fn();
    },
  };
  await postgres.start();
  return postgres;
}
