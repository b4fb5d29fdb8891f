/**
 * Full rebuild at 10k and 100k records: the operator's `npm run ops --
 * rebuild` run as its own process over a seeded database, timed, with its
 * peak RSS read from /proc. The baseline is the floor of any rebuild,
 * measured in the same run: `pg_dump` of that database (reading all the
 * data) plus copying the rebuilt folder (writing all the files).
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createPool } from '../db/pool.ts';
import { listAllRecords } from '../worker/jobs/rebuild.ts';
import { seedRecords } from './seed/seed-records.ts';
import type { Bench, Comparison } from './lib/types.ts';

const run = promisify(execFile);

/** Sizes from BENCH_REBUILD_SIZES (comma-separated), else 10k and 100k. */
const SIZES = (process.env.BENCH_REBUILD_SIZES ?? '10000,100000').split(',').map(Number);
/**
 * A database already seeded (`npm run seed -- --records 100000 --database-url
 * …`), rebuilt as it is instead of seeding one per size: seeding 100k takes
 * about 3 minutes of a run, and the seed is deterministic, so the records are
 * the same. Only read; its size is what it holds (BENCH_REBUILD_SIZES is not used).
 */
const SEEDED_URL = process.env.BENCH_REBUILD_DATABASE_URL;

/**
 * The Node options of `npm run ops` (package.json's `ops` script, e.g. its
 * young generation's size), so the bench runs the operator's command as it
 * is while sampling the Node process itself rather than npm's.
 */
function opsNodeOptions(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { ops: string } }).scripts.ops;
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'cli/ops.ts')
    throw new Error(`the ops script is no longer "node [options] cli/ops.ts": ${script}`);
  return words.slice(1, -1);
}

/** Runs the CLI rebuild and samples its resident set until it exits. */
async function timedOps(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ seconds: number; peakRssMiB: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...opsNodeOptions(), 'cli/ops.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** The floor: dump the whole database, then copy the rebuilt folder, each timed. */
async function measureFloor(databaseUrl: string, dir: string): Promise<{ dumpSeconds: number; copySeconds: number }> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'ak-bench-floor-'));
  try {
    let t = performance.now();
    await run('pg_dump', ['--format=custom', '--compress=0', `--file=${path.join(scratch, 'db.dump')}`, databaseUrl], {
      maxBuffer: 1 << 20,
    });
    const dumpSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    await run('cp', ['-r', dir, path.join(scratch, 'copy')]);
    return { dumpSeconds, copySeconds: (performance.now() - t) / 1000 };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export const rebuildBench: Bench = {
  name: 'rebuild',
  title:
    'full rebuild (npm run ops -- rebuild) at 10k and 100k records, time and peak RSS, vs the floor: pg_dump of the database + copying the rebuilt folder',
  budgetSeconds: 3600,
  async run(ctx) {
    const comparisons: Comparison[] = [];
    const details: Record<string, unknown> = {};
    for (const size of SEEDED_URL ? [0] : SIZES) {
      const stack = await ctx.startStack({}, { worker: false });
      let seeded: Partial<Awaited<ReturnType<typeof seedRecords>>> = {};
      let databaseUrl = stack.config.DATABASE_URL;
      let all: Awaited<ReturnType<typeof listAllRecords>>;
      if (SEEDED_URL) {
        databaseUrl = SEEDED_URL;
        const pool = createPool(SEEDED_URL, 1);
        try {
          all = await listAllRecords(pool);
        } finally {
          await pool.end();
        }
        ctx.log(`using the seeded database in BENCH_REBUILD_DATABASE_URL: ${all.length} records`);
      } else {
        const seededAt = performance.now();
        seeded = await seedRecords(stack.pool, { records: size });
        ctx.log(`${size}: seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);
        all = await listAllRecords(stack.pool);
      }
      // Seeding N records adds N/250 agents (100,400 for 100k): the line is named by N.
      const records = SEEDED_URL ? Math.round(all.length / 1000) * 1000 : size;

      const dir = await mkdtemp(path.join(tmpdir(), 'ak-bench-rebuild-'));
      ctx.defer(() => rm(dir, { recursive: true, force: true }));
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: stack.config.REDIS_URL ?? '',
        QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
        PROJECTIONS_DIR: dir,
        LOG_LEVEL: 'silent',
      };
      const rebuild = await timedOps(['rebuild'], env);
      // The same CLI doing almost nothing: what a process costs before the rebuild's work.
      const idle = await timedOps(['status'], env);
      ctx.log(
        `${records}: rebuild ${rebuild.seconds.toFixed(1)} s, peak RSS ${rebuild.peakRssMiB.toFixed(0)} MiB (${rebuild.output})`,
      );
      const floor = await measureFloor(databaseUrl, dir);
      const floorSeconds = floor.dumpSeconds + floor.copySeconds;
      ctx.log(
        `${records}: floor ${floorSeconds.toFixed(1)} s (pg_dump ${floor.dumpSeconds.toFixed(1)} s + cp -r ${floor.copySeconds.toFixed(1)} s)`,
      );

      const label = 'pg_dump + cp -r of the output';
      comparisons.push(
        {
          metric: `rebuild ${records / 1000}k records, time`,
          unit: 's',
          value: rebuild.seconds,
          baselineLabel: label,
          baseline: floorSeconds,
          better: 'lower',
        },
        {
          metric: `rebuild ${records / 1000}k records, records/s`,
          unit: '/s',
          value: all.length / rebuild.seconds,
          baselineLabel: label,
          baseline: all.length / floorSeconds,
          better: 'higher',
        },
        {
          metric: `rebuild ${records / 1000}k records, peak RSS`,
          unit: 'MiB',
          value: rebuild.peakRssMiB,
          baselineLabel: 'the same CLI running status',
          baseline: idle.peakRssMiB,
          better: 'lower',
        },
      );
      details[`records_${records}`] = {
        ...seeded,
        sampleProblemIds: undefined,
        projections: all.length,
        files: all.length * 3,
        rebuild,
        floor,
      };
    }
    return {
      comparisons,
      details,
      notes: [
        'Targets (issue 8): rebuild within 5x the floor; 100k records in at most 60 s with peak RSS under 1 GiB.',
      ],
    };
  },
};
