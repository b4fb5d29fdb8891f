/**
 * deploy/docker-compose.yml and deploy/Dockerfile. Where a Docker client with Compose
 * is installed, `docker compose config` (and `docker-compose config`, v1)
 * must accept the file; everywhere, this checks what can go wrong without
 * running them: the YAML parses, services
 * run the package's npm scripts with environments the service's config
 * accepts, they share one projections volume where each one looks for it,
 * and nginx gets a value for every placeholder of the shipped config.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../core/config.ts';
import { NGINX_CONFIG } from '../helpers/nginx.ts';
import { freePort } from '../helpers/ports.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

const run = promisify(execFile);

interface Service {
  build?: { context: string; dockerfile?: string; target: string };
  stop_grace_period?: string;
  healthcheck?: { test?: string[]; disable?: boolean };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
}

let compose: { services: Record<string, Service>; volumes: Record<string, unknown> };
let scripts: Record<string, string>;
let dockerfile: string;

beforeAll(async () => {
  compose = parse(await readFile(path.join(ROOT, 'deploy/docker-compose.yml'), 'utf8'));
  scripts = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  dockerfile = await readFile(path.join(ROOT, 'deploy/Dockerfile'), 'utf8');
});

const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** `name:/path[:ro]` → where a named volume is mounted and whether read-only. */
function mountOf(s: Service, volume: string): { target: string; readOnly: boolean } | null {
  const entry = (s.volumes ?? []).find((v) => v.split(':')[0] === volume);
  if (!entry) return null;
  const [, target, mode] = entry.split(':');
  return { target: target!, readOnly: mode === 'ro' };
}

/** Compose's `${VAR:-default}` as Compose would expand it with nothing set. */
const withDefaults = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')]));

/** Stage name → its FROM image, from the Dockerfile. */
const stages = () => new Map([...dockerfile.matchAll(/^FROM\s+(\S+)\s+AS\s+(\S+)/gim)].map((m) => [m[2]!, m[1]!]));

/** The Compose commands this machine has: the v2 plugin, v1 docker-compose, either or none. */
async function composeCommands(): Promise<string[][]> {
  const found: string[][] = [];
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const ok = await run(command[0]!, [...command.slice(1), 'version']).then(
      () => true,
      () => false,
    );
    if (ok) found.push(command);
  }
  return found;
}

describe('cli/healthcheck.ts', () => {
  it('exits 0 when the API index answers, and 1 when nothing listens or it answers an error', async () => {
    const port = await freePort();
    const server = createServer((req, res) => res.writeHead(req.url === '/api/v1' ? 200 : 500).end());
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const check = (env: Record<string, string>) =>
      run(process.execPath, ['cli/healthcheck.ts'], { cwd: ROOT, env: { ...process.env, ...env } }).then(
        () => 0,
        (e: { code: number }) => e.code,
      );
    try {
      expect(await check({ PORT: String(port) })).toBe(0);
      expect(await check({ HEALTHCHECK_URL: `http://127.0.0.1:${port}/metrics` })).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await check({ PORT: String(port) })).toBe(1);
  });
});

describe('the Dockerfile', () => {
  it('installs exactly the lock file with `npm ci` (test/deploy/lockfile.test.ts checks the lock holds every platform)', () => {
    expect(dockerfile).toMatch(/^RUN npm ci --no-fund --no-audit$/m);
    expect(dockerfile).not.toMatch(/npm install/);
  });

  it('runs node under an init process, with a HEALTHCHECK', () => {
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends tini/);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "api\/server\.ts"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["node", "cli\/healthcheck\.ts"\]$/m);
  });
});

describe('docker-compose.yml', () => {
  it('is accepted by `docker compose config` wherever a Compose client is installed', async () => {
    const commands = await composeCommands();
    for (const command of commands) {
      const { stdout } = await run(
        command[0]!,
        [...command.slice(1), '-f', 'deploy/docker-compose.yml', 'config', '--services'],
        { cwd: ROOT },
      );
      expect(stdout.trim().split('\n').sort()).toEqual(['api', 'migrate', 'nginx', 'postgres', 'redis', 'worker']);
    }
    // .ci/run installs Debian's docker-compose (1.29, which validates against the Compose spec's schema), so CI always runs one.
    if (process.env.CI === 'true') expect(commands.length).toBeGreaterThan(0);
    // Without a client this checks nothing more than the YAML tests below; say so in the output.
    if (commands.length === 0) console.info('no Docker Compose client here: `docker compose config` not run');
  });

  it('has Postgres, Redis, a one-shot migration, the API, the worker and nginx', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'migrate', 'nginx', 'postgres', 'redis', 'worker']);
  });

  it.each([
    ['migrate', 'migrate'],
    ['api', 'start:api'],
    ['worker', 'start:worker'],
  ])('runs %s with node itself (no npm in between), as the package script %s does', (name, script) => {
    expect(service(name).command?.join(' ')).toBe(scripts[script]);
    expect(service(name).command?.[0]).toBe('node');
  });

  it('is accepted by docker-compose 1.29 as well as Compose v2: no top-level name or version', async () => {
    const raw = parse(await readFile(path.join(ROOT, 'deploy/docker-compose.yml'), 'utf8'));
    expect(Object.keys(raw).sort()).toEqual(['services', 'volumes']);
  });

  it('lets the API and the worker finish a commit before they are killed: stop_grace_period above the commit timeout', () => {
    const commitTimeoutSeconds = loadConfig({}).COMMIT_TIMEOUT_MS / 1000;
    for (const name of ['api', 'worker']) {
      const grace = /^(\d+)s$/.exec(service(name).stop_grace_period ?? '')?.[1];
      expect([name, Number(grace) > commitTimeoutSeconds]).toEqual([name, true]);
    }
  });

  it('checks health: the API by its index, the worker by its metrics, the one-shot migration not at all', () => {
    expect(service('api').healthcheck?.test).toEqual(['CMD', 'node', 'cli/healthcheck.ts']);
    expect(service('worker').environment?.HEALTHCHECK_URL).toBe(
      `http://127.0.0.1:${service('worker').environment?.WORKER_METRICS_PORT}/metrics`,
    );
    expect(service('migrate').healthcheck).toEqual({ disable: true });
  });

  it("builds the service from the Dockerfile's node:24 stage and nginx from its edge stage", () => {
    const images = stages();
    expect(images.get('build')).toMatch(/^node:24\b/);
    expect(images.get('app')).toMatch(/^node:24\b/);
    for (const name of ['migrate', 'api', 'worker'])
      expect(service(name).build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile', target: 'app' });
    expect(service('nginx').build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile', target: 'edge' });
    expect(images.get('edge')).toMatch(/^nginx:/);
    expect(dockerfile).toMatch(
      /^COPY deploy\/nginx\/agent-knowledge\.conf \/etc\/nginx\/templates\/default\.conf\.template$/m,
    );
  });

  it('gives the service only settings its config knows, and values it accepts', () => {
    const known = new Set(Object.keys(ConfigSchema.shape));
    for (const name of ['migrate', 'api', 'worker']) {
      const env = withDefaults(service(name).environment ?? {});
      for (const key of Object.keys(env)) expect([name, key, known.has(key)]).toEqual([name, key, true]);
      expect(() => loadConfig(env)).not.toThrow();
    }
    const api = loadConfig(withDefaults(service('api').environment!));
    expect(api.HOST).toBe('0.0.0.0');
    expect(api.TRUST_PROXY).toBe(true);
  });

  it('runs several API processes and migrates before any of them or the worker starts', () => {
    expect(service('api').deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(service('migrate').depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    for (const name of ['api', 'worker']) {
      expect(service(name).depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(service(name).depends_on?.redis).toEqual({ condition: 'service_healthy' });
    }
  });

  it('shares one projections volume: the worker writes where the API and nginx read', () => {
    expect(compose.volumes).toHaveProperty('projections');
    const worker = mountOf(service('worker'), 'projections');
    const api = mountOf(service('api'), 'projections');
    const nginx = mountOf(service('nginx'), 'projections');
    expect(worker).toEqual({ target: service('worker').environment!.PROJECTIONS_DIR, readOnly: false });
    expect(api).toEqual({ target: service('api').environment!.PROJECTIONS_DIR, readOnly: true });
    expect(nginx).toEqual({ target: service('nginx').environment!.AK_PROJECTIONS_DIR, readOnly: true });
  });

  it('gives nginx a value for every placeholder of the shipped config, pointing at the API and the built assets', async () => {
    const placeholders = new Set(
      [...(await readFile(NGINX_CONFIG, 'utf8')).matchAll(/\$\{(AK_[A-Z_]+)\}/g)].map((m) => m[1]!),
    );
    const env = service('nginx').environment!;
    expect(Object.keys(env).sort()).toEqual([...placeholders].sort());
    expect(env.AK_UPSTREAM).toBe(`api:${service('api').environment!.PORT}`);
    expect(dockerfile).toContain(`COPY --from=build /app/dist/client ${env.AK_CLIENT_DIR}`);
  });
});
