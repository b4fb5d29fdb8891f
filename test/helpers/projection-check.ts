/**
 * "Every projection present and current": renders every record afresh into
 * an empty directory (a full rebuild) and compares that tree, file by file
 * and byte by byte, with what the worker wrote incrementally.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { loadHtmlRenderer } from '../../projections/html.ts';
import { COLLECTION } from '../../core/types.ts';
import { rebuildAll } from '../../worker/jobs/rebuild.ts';

export interface ProjectionReport {
  /** Files a fresh render produces. */
  expected: number;
  /** Expected files the worker never wrote. */
  missing: string[];
  /** Files whose bytes differ from a fresh render. */
  stale: string[];
  /** Projection files no record has. */
  extra: string[];
  /** Temp files left by a writer killed between write and rename (not served). */
  temp: string[];
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of Object.values(COLLECTION)) {
    for (const name of await readdir(path.join(dir, folder)).catch(() => [] as string[])) out.push(`${folder}/${name}`);
  }
  return out.sort();
}

export async function checkProjections(pool: pg.Pool, astroEntry: string, dir: string): Promise<ProjectionReport> {
  const fresh = await mkdtemp(path.join(tmpdir(), 'ak-fresh-'));
  const html = await loadHtmlRenderer(astroEntry);
  try {
    await rebuildAll(pool, html, fresh);
    const expected = await listFiles(fresh);
    const actual = await listFiles(dir);
    const have = new Set(actual);
    const want = new Set(expected);
    const report: ProjectionReport = {
      expected: expected.length,
      missing: expected.filter((f) => !have.has(f)),
      stale: [],
      extra: actual.filter((f) => !want.has(f) && !f.endsWith('.tmp')),
      temp: actual.filter((f) => f.endsWith('.tmp')),
    };
    for (const file of expected) {
      if (!have.has(file)) continue;
      const [a, b] = await Promise.all([readFile(path.join(fresh, file)), readFile(path.join(dir, file))]);
      if (!a.equals(b)) report.stale.push(file);
    }
    return report;
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
}
