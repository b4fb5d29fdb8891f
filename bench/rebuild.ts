/**
 * Full rebuild at 10k and 100k records: the operator's `npm run ops --
 * rebuild` run as its own process over a seeded database, timed, with its
 * peak RSS read from /proc. The baseline is the data floor of the same
 * rebuild: the same view objects built and written as JSON, in this process,
 * with no templates and no HTTP (what rendering costs on top of reading).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_RECORD_LIMIT } from '../core/schemas/read-params.ts';
import { buildAgentView } from '../site/lib/views/agent.ts';
import { buildDiscussionView } from '../site/lib/views/discussion.ts';
import { buildProblemView } from '../site/lib/views/problem.ts';
import { buildSolutionView } from '../site/lib/views/solution.ts';
import { COLLECTION, type RecordRef } from '../core/types.ts';
import { listAllRecords } from '../worker/jobs/rebuild.ts';
import { seedRecords } from './seed/seed-records.ts';
import type { Bench, Comparison } from './lib/types.ts';
import type { Queryable } from '../db/pool.ts';

const SIZES = [10_000, 100_000];
const PARAMS = { page: 1, limit: DEFAULT_RECORD_LIMIT };

const VIEWS: Record<RecordRef['type'], (db: Queryable, id: string) => Promise<object | null>> = {
  problem: (db, id) => buildProblemView(db, id, PARAMS),
  solution: (db, id) => buildSolutionView(db, id, PARAMS),
  discussion: (db, id) => buildDiscussionView(db, id, PARAMS),
  agent: (db, id) => buildAgentView(db, id),
};

/** Runs the CLI rebuild and samples its resident set until it exits. */
async function timedOps(args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; peakRssMiB: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['ops/cli.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', () => {});
  let peakKiB = 0;
  const sample = async () => {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
  };
  const timer = setInterval(() => void sample(), 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`ops ${args.join(' ')} exited ${code}: ${output}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMiB: peakKiB / 1024, output: output.trim() };
}

export const rebuildBench: Bench = {
  name: 'rebuild',
  title: 'full rebuild (npm run ops -- rebuild) at 10k and 100k records, time and peak RSS, vs building and writing the same views as JSON directly',
  budgetSeconds: 3600,
  async run(ctx) {
    const comparisons: Comparison[] = [];
    const details: Record<string, unknown> = {};
    for (const records of SIZES) {
      const stack = await ctx.startStack({}, { worker: false });
      const seededAt = performance.now();
      const seeded = await seedRecords(stack.pool, { records });
      ctx.log(`${records}: seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);
      const all = await listAllRecords(stack.pool);

      const dir = await mkdtemp(path.join(tmpdir(), 'ak-bench-rebuild-'));
      ctx.defer(() => rm(dir, { recursive: true, force: true }));
      const env = {
        ...process.env, DATABASE_URL: stack.config.DATABASE_URL, REDIS_URL: stack.config.REDIS_URL ?? '',
        QUEUE_PREFIX: stack.config.QUEUE_PREFIX, PROJECTIONS_DIR: dir, LOG_LEVEL: 'silent',
      };
      const rebuild = await timedOps(['rebuild'], env);
      // The same CLI doing almost nothing: what a process costs before the rebuild's work.
      const idle = await timedOps(['status'], env);
      ctx.log(`${records}: rebuild ${rebuild.seconds.toFixed(1)} s, peak RSS ${rebuild.peakRssMiB.toFixed(0)} MiB (${rebuild.output})`);

      const floorDir = await mkdtemp(path.join(tmpdir(), 'ak-bench-floor-'));
      ctx.defer(() => rm(floorDir, { recursive: true, force: true }));
      for (const folder of Object.values(COLLECTION)) await mkdir(path.join(floorDir, folder), { recursive: true });
      const floorStarted = performance.now();
      for (const ref of all) {
        const view = await VIEWS[ref.type](stack.pool, ref.id);
        await writeFile(path.join(floorDir, COLLECTION[ref.type], `${ref.id}.json`), `${JSON.stringify(view, null, 2)}\n`);
      }
      const floorSeconds = (performance.now() - floorStarted) / 1000;
      ctx.log(`${records}: views as JSON only ${floorSeconds.toFixed(1)} s`);

      comparisons.push(
        { metric: `rebuild ${records / 1000}k records, time`, unit: 's', value: rebuild.seconds, baselineLabel: 'views as JSON, no templates', baseline: floorSeconds, better: 'lower' },
        { metric: `rebuild ${records / 1000}k records, records/s`, unit: '/s', value: all.length / rebuild.seconds, baselineLabel: 'views as JSON, no templates', baseline: all.length / floorSeconds, better: 'higher' },
        { metric: `rebuild ${records / 1000}k records, peak RSS`, unit: 'MiB', value: rebuild.peakRssMiB, baselineLabel: 'the same CLI running status', baseline: idle.peakRssMiB, better: 'lower' },
      );
      details[`records_${records}`] = { ...seeded, sampleProblemIds: undefined, projections: all.length, files: all.length * 3, rebuild, floorSeconds };
    }
    return {
      comparisons,
      details,
      notes: ['The rebuild renders three files per record through the built Astro app; the floor only reads and serialises the same views.'],
    };
  },
};
