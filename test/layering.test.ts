/**
 * The layering of .dependency-cruiser.mjs holds for the repository, `.astro`
 * files included (scripts/check-astro-layers.ts), and the checks really fail
 * on a back-edge, a forbidden folder and a cycle (shown on a throwaway tree,
 * so the rules cannot silently match nothing).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { LAYERS } from '../.dependency-cruiser.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const CONFIG = path.join(REPO, '.dependency-cruiser.mjs');
const CLI = path.join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const ASTRO_CHECK = path.join(REPO, 'scripts/check-astro-layers.ts');
const FOLDERS = [...Object.keys(LAYERS), 'test', 'bench'];

async function cruise(cwd: string, folders: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, '--config', CONFIG, ...folders], { cwd });
    return { ok: true, output: stdout };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  }
}

async function checkAstro(root: string, folders: string[] = []): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [ASTRO_CHECK, '--root', root, ...folders]);
    return { ok: true, output: stdout };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  }
}

const trees: string[] = [];
afterAll(async () => {
  await Promise.all(trees.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function treeOf(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ak-layers-'));
  trees.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('the dependency rules', () => {
  it('hold for every folder of the repository', async () => {
    const result = await cruise(REPO, FOLDERS);
    expect(result.output).toContain('no dependency violations found');
    expect(result.ok).toBe(true);
  });

  it('fail when core/ imports another folder, and name the rule', async () => {
    const dir = await treeOf({
      'core/types.ts': "import { pool } from '../db/pool.ts';\nexport const x = pool;\n",
      'db/pool.ts': 'export const pool = 1;\n',
    });
    const result = await cruise(dir, ['core', 'db']);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('core-imports-only-its-layers: core/types.ts → db/pool.ts');
  });

  it('fail when api/ imports site/ or worker/ imports api/', async () => {
    const dir = await treeOf({
      'api/app.ts': "import { csp } from '../site/lib/csp.ts';\nexport const a = csp;\n",
      'site/lib/csp.ts': 'export const csp = 1;\n',
      'worker/main.ts': "import { a } from '../api/app.ts';\nexport const w = a;\n",
    });
    const result = await cruise(dir, ['api', 'site', 'worker']);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('api-imports-only-its-layers: api/app.ts → site/lib/csp.ts');
    expect(result.output).toContain('worker-imports-only-its-layers: worker/main.ts → api/app.ts');
  });

  it('fail on a cycle inside one folder, and on I/O in core/', async () => {
    const dir = await treeOf({
      'worker/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'worker/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'core/config.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    });
    const result = await cruise(dir, ['worker', 'core']);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('no-cycles');
    expect(result.output).toContain('core-does-no-io: core/config.ts → fs');
  });

  it("fail when static-search/ makes a queue or imports infra/: its jobs are the worker's", async () => {
    const dir = await treeOf({
      'static-search/indexer.ts':
        "import { Queue } from 'bullmq';\nimport { createQueue } from '../infra/queues.ts';\nexport const q = [Queue, createQueue];\n",
      'infra/queues.ts': 'export const createQueue = 1;\n',
    });
    const result = await cruise(dir, ['static-search', 'infra']);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('static-search-has-no-queues: static-search/indexer.ts → bullmq');
    expect(result.output).toContain(
      'static-search-imports-only-its-layers: static-search/indexer.ts → infra/queues.ts',
    );
  });
});

describe('the dependency rules for .astro files', () => {
  it('hold for every .astro file of the repository', async () => {
    const result = await checkAstro(REPO);
    expect(result.output).toContain('no .astro dependency violations found');
    expect(result.ok).toBe(true);
  });

  it('fail when a page imports the database in its frontmatter, a type import included, or bundles a test script', async () => {
    const dir = await treeOf({
      'site/components/Evidence.astro': [
        '---',
        "import type { Row } from '../../db/queries/trust.ts';",
        "import { label } from '../lib/labels.ts';",
        'if (!Astro.props.row) return new Response(null, { status: 404 });',
        '---',
        '<p>{label}</p>',
      ].join('\n'),
      'site/pages/probe.astro':
        '---\nimport Evidence from \'../components/Evidence.astro\';\n---\n<Evidence /><script src="../../test/helpers/probe.ts"></script>\n',
      'site/pages/fine.astro':
        "---\nimport { csp } from '../../core/csp.ts';\nexport const prerender = true;\n---\n<p>{csp}</p>\n",
    });
    const result = await checkAstro(dir, ['site']);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(
      'site-imports-only-its-layers: site/components/Evidence.astro → db/queries/trust.ts',
    );
    expect(result.output).toContain('nothing-imports-the-harness: site/pages/probe.astro → test/helpers/probe.ts');
    expect(result.output).not.toContain('fine.astro');
    expect(result.output).not.toContain('labels.ts');
  });
});
