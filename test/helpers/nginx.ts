/**
 * nginx from the Debian package, started with the shipped
 * deploy/nginx/agent-knowledge.conf in front of a running API: templated into
 * a temporary prefix, on a free port, as a foreground child process that
 * `close()` stops. Used by the deploy tests and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NGINX_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx/agent-knowledge.conf');

/** The values of the config's `${AK_*}` placeholders. */
export interface NginxSite {
  AK_LISTEN: string;
  AK_UPSTREAM: string;
  AK_PROJECTIONS_DIR: string;
  AK_CLIENT_DIR: string;
}

export interface Nginx {
  base: string;
  port: number;
  /** nginx's stderr so far (errors and warnings). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Fills in `${AK_*}` placeholders, like `envsubst '${AK_LISTEN} …'` in the
 * install instructions; nginx's own `$variables` are left alone. A placeholder
 * without a value is an error, not an empty string.
 */
export function fillPlaceholders(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(AK_[A-Z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for \${${name}} in the nginx config`);
    return value;
  });
}

/** The nginx binary: NGINX_BIN, else the Debian package's. */
export function findNginx(): string {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/bin/nginx'].filter((p): p is string => !!p);
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error('nginx is not installed: `apt-get install -y nginx-light` (or set NGINX_BIN). .ci/run installs it.');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The main nginx.conf around the site: everything nginx writes stays in `prefix`. */
function mainConfig(prefix: string, site: string, workers: number): string {
  // As root, nginx would run its workers as `nobody`, who cannot read the
  // test's private temporary directories; as anyone else `user` is ignored.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  return `${user}
daemon off;
worker_processes ${workers};
pid ${prefix}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${site};
}
`;
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nginx did not listen on ${port}: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface NginxOptions {
  workers?: number;
  /** More API processes (host:port) beside AK_UPSTREAM: a `server` line each, as the config's header says to add. */
  moreUpstreams?: string[];
}

/** The config with a `server` line for each further API process after AK_UPSTREAM's. */
function addUpstreams(config: string, first: string, more: string[]): string {
  const line = `    server ${first};`;
  if (!config.includes(line)) throw new Error('the nginx config has no upstream server line to add to');
  return config.replace(line, [first, ...more].map((address) => `    server ${address};`).join('\n'));
}

export async function startNginx(site: Omit<NginxSite, 'AK_LISTEN'>, options: NginxOptions = {}): Promise<Nginx> {
  const binary = findNginx();
  const prefix = await mkdtemp(path.join(tmpdir(), 'ak-nginx-'));
  await mkdir(path.join(prefix, 'logs'));
  const port = await freePort();
  const siteFile = path.join(prefix, 'agent-knowledge.conf');
  const filled = fillPlaceholders(await readFile(NGINX_CONFIG, 'utf8'), { ...site, AK_LISTEN: `127.0.0.1:${port}` });
  await writeFile(
    siteFile,
    options.moreUpstreams?.length ? addUpstreams(filled, site.AK_UPSTREAM, options.moreUpstreams) : filled,
  );
  const mainFile = path.join(prefix, 'nginx.conf');
  await writeFile(mainFile, mainConfig(prefix, siteFile, options.workers ?? 1));

  const child = spawn(binary, ['-p', prefix, '-c', mainFile, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // nginx's fast shutdown
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, () => errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, port, stderr: () => errors, close: stop };
}
