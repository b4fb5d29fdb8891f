/**
 * package-lock.json holds every platform's optional bindings, so `npm ci`
 * (in .ci/run and deploy/Dockerfile) installs from it on any platform. An npm
 * 11 install once left the other platforms' entries of Astro's compiler
 * binding out of the lock: `npm ci` then called the lock out of sync, and
 * an image built on arm64 would have had no binding at all. Both checks read
 * the lock only, so they run anywhere, with no registry.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
let packages: Record<string, LockEntry>;

beforeAll(async () => {
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  expect(lock.lockfileVersion).toBe(3);
  packages = lock.packages;
});

/** Where Node (and npm ci) finds `name` from the package at `from`: its own node_modules, then each parent's. */
function resolveFrom(from: string, name: string): string | null {
  for (
    let base = from;
    ;
    base = base.includes('/node_modules/') ? base.slice(0, base.lastIndexOf('/node_modules/')) : ''
  ) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
  }
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of every locked package, whatever platform it is for', () => {
    const missing: string[] = [];
    let optional = 0;
    for (const [where, entry] of Object.entries(packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        optional++;
        if (!resolveFrom(where, name)) missing.push(`${where || '(root)'} → ${name}`);
      }
    }
    expect(optional).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it.each([['x64'], ['arm64']])(
    'locks a linux-%s (glibc) binding of each native build tool, for the images Docker builds',
    (cpu) => {
      const forPlatform = (prefix: string) =>
        Object.entries(packages).some(
          ([where, entry]) =>
            where.startsWith(`node_modules/${prefix}`) &&
            entry.os?.includes('linux') &&
            entry.cpu?.includes(cpu) &&
            (entry.libc === undefined || entry.libc.includes('glibc')),
        );
      for (const prefix of ['@esbuild/', '@rolldown/binding-', '@astrojs/compiler-binding-', '@swc/core-']) {
        expect([prefix, forPlatform(prefix)]).toEqual([prefix, true]);
      }
    },
  );
});
