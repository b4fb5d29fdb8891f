/**
 * The OpenAPI document is lint-clean: no error and no warning from Redocly's
 * recommended rules (redocly.yaml) or Spectral's `oas` rules (.spectral.yaml),
 * both run as their CLIs on the document the service serves.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openapi.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-openapi-'));
  file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify(buildOpenApiDocument(), null, 2));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A CLI's output whether it exits 0 or not (linters exit 1 on findings). */
const output = (command: string, args: string[]) =>
  run(process.execPath, [command, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (e: { stdout: string }) => e.stdout,
  );

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const report = JSON.parse(
      await output('node_modules/@redocly/cli/bin/cli.js', [
        'lint',
        file,
        '--config',
        'redocly.yaml',
        '--format',
        'json',
      ]),
    );
    const problems = report.problems.map(
      (p: { ruleId: string; message: string; location: { pointer: string }[] }) =>
        `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    console.info(`redocly lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it("passes Spectral's oas rules with no finding of any severity", async () => {
    const results = JSON.parse(
      (await output('node_modules/@stoplight/spectral-cli/dist/index.js', [
        'lint',
        file,
        '--ruleset',
        '.spectral.yaml',
        '--format',
        'json',
        '--fail-severity',
        'hint',
        '--quiet',
      ])) || '[]',
    );
    const findings = results.map(
      (r: { code: string; message: string; path: string[] }) => `${r.code}: ${r.message} at ${r.path.join('.')}`,
    );
    console.info(`spectral lint: ${findings.length} findings`);
    expect(findings).toEqual([]);
  }, 120_000);
});
