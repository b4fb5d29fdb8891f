/**
 * `npm run bench [-- name …]`: runs the benches in order (all, or the ones
 * named), each against a baseline measured in the same run, prints the
 * machine and every number with its ratio, and writes bench/results/<name>.json.
 *
 * To add a bench: write bench/<name>.ts exporting a `Bench` (lib/types.ts),
 * append it to BENCHES, add a line to bench/README.md. Search latency at
 * 100k records is its own script (bench/search-bench.ts); `npm run bench`
 * runs it after these.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { findNginx } from '../test/helpers/nginx.ts';
import { createBenchContext } from './lib/context.ts';
import { describeMachine, formatMachine, type Machine } from './lib/machine.ts';
import { round } from './lib/stats.ts';
import { createTemplateDatabase } from './lib/template-database.ts';
import { ratioOf, type Bench, type BenchReport, type Comparison } from './lib/types.ts';
import { rebuildBench } from './rebuild.ts';
import { staticReads } from './static-reads.ts';
import { writeThroughput } from './write-throughput.ts';
import { embeddedWrites } from './embedded-writes.ts';
import { pagefindVisibility } from './pagefind-visibility.ts';
import { staticSearchTiers } from './static-search-tiers.ts';
import { writeVisibility } from './write-visibility.ts';
import { processGroupWrites } from './process-group-writes.ts';
import { secretScan } from './secret-scan.ts';

/** Every bench, in the order they run. */
export const BENCHES: Bench[] = [
  staticReads,
  writeThroughput,
  embeddedWrites,
  writeVisibility,
  pagefindVisibility,
  staticSearchTiers,
  rebuildBench,
  secretScan,
  processGroupWrites,
];

/** How far past its budget a bench may run before the whole run is stopped. */
const GRACE_SECONDS = 30;
const RESULTS_DIR = new URL('./results/', import.meta.url);

function formatValue(n: number, unit: string): string {
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return `${n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`;
}

function formatComparison(c: Comparison): string {
  const ratio = ratioOf(c);
  return (
    `  ${c.metric.padEnd(34)} ${formatValue(c.value, c.unit).padStart(14)}   baseline ${formatValue(c.baseline, c.unit).padStart(14)} (${c.baselineLabel})` +
    `   ratio ${Number.isFinite(ratio) ? round(ratio, ratio < 10 ? 2 : 1) : 'n/a'}× (${c.better} is better)`
  );
}

function selectBenches(names: string[]): Bench[] {
  if (names.length === 0) return BENCHES;
  const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length)
    throw new Error(`unknown bench ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  return BENCHES.filter((b) => names.includes(b.name));
}

async function runOne(bench: Bench, machine: Machine, templateDatabase: string): Promise<BenchReport> {
  const { ctx, cleanup } = createBenchContext(machine, templateDatabase);
  let watchdog: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    watchdog = setTimeout(
      () => reject(new Error(`overran its ${bench.budgetSeconds} s budget by ${GRACE_SECONDS} s`)),
      (bench.budgetSeconds + GRACE_SECONDS) * 1000,
    );
  });
  try {
    return await Promise.race([bench.run(ctx), overrun]);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

const selected = selectBenches(process.argv.slice(2));
let nginxBinary: string | null = null;
try {
  nginxBinary = findNginx();
} catch {
  nginxBinary = null;
}
const machine = describeMachine(nginxBinary);
console.log(formatMachine(machine));
console.log(
  'Numbers from a shared or busy machine are noisy; compare ratios within one run rather than numbers across runs.\n',
);

await mkdir(RESULTS_DIR, { recursive: true });
const template = await createTemplateDatabase();
const summary: { bench: string; comparisons: Comparison[] }[] = [];
let failures = 0;
try {
  for (const bench of selected) {
    console.log(`── ${bench.name}: ${bench.title}`);
    const started = performance.now();
    const startedAt = new Date().toISOString();
    try {
      const report = await runOne(bench, machine, template.name);
      const seconds = (performance.now() - started) / 1000;
      for (const c of report.comparisons) console.log(formatComparison(c));
      for (const note of report.notes ?? []) console.log(`  note: ${note}`);
      const file = new URL(`${bench.name}.json`, RESULTS_DIR);
      const comparisons = report.comparisons.map((c) => ({
        ...c,
        value: round(c.value),
        baseline: round(c.baseline),
        ratio: round(ratioOf(c), 3),
      }));
      await writeFile(
        file,
        `${JSON.stringify({ bench: bench.name, title: bench.title, startedAt, seconds: round(seconds, 1), machine, comparisons, details: report.details, notes: report.notes ?? [] }, null, 2)}\n`,
      );
      console.log(`  ${round(seconds, 1)} s; results in bench/results/${bench.name}.json\n`);
      summary.push({ bench: bench.name, comparisons: report.comparisons });
    } catch (error) {
      failures++;
      console.error(
        `  FAILED after ${round((performance.now() - started) / 1000, 1)} s: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      if (error instanceof Error && error.message.startsWith('overran')) break;
    }
  }
} finally {
  await template.drop();
}

if (summary.length) {
  console.log('── summary');
  for (const { bench, comparisons } of summary) {
    console.log(`${bench}`);
    for (const c of comparisons) console.log(formatComparison(c));
  }
}
process.exit(failures ? 1 : 0);
