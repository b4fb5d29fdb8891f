/**
 * `npm run eval:search`: the search evaluations, each in its own throwaway
 * database among 3,000 generated records, mode auto, recall@1, recall@7 and
 * MRR per query kind, held-out and tuning apart; writes
 * bench/results/search-eval.json.
 * - First the real-material evaluation (bench/eval-real/): literals and the
 *   forms other reporters posted for the same error, from public threads.
 * - Then the earlier evaluation (test/database-search/eval-cases*.ts), whose
 *   machine variants and substrings are generated from its literals.
 * `--set real` or `--set generated` runs one of them. `--part tuning` reads
 * and prints the tuning part alone (the real-material held-out file is not
 * even loaded), for tuning the ranking without seeing held-out figures.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import {
  EVAL_SPLITS,
  evaluateSearch,
  formatEvalReport,
  formatMeasured,
  measureQueries,
  seedCases,
  seedEvaluation,
  type EvalSplit,
  type Measured,
} from './lib/search-evaluation.ts';
import { loadRealCases, loadRealPart, realCounts, realQueries } from './lib/real-evaluation.ts';
import { createThrowawayDatabase } from './lib/throwaway-database.ts';

const { values } = parseArgs({
  options: {
    noise: { type: 'string', default: '3000' },
    set: { type: 'string', default: 'both' },
    part: { type: 'string', default: 'both' },
  },
});
const noise = Number(values.noise);
if (!['both', 'real', 'generated'].includes(values.set)) throw new Error('--set is real, generated or both');
if (!['both', 'tuning'].includes(values.part)) throw new Error('--part is tuning or both');
const splits: readonly EvalSplit[] = values.part === 'tuning' ? ['tuning'] : EVAL_SPLITS;

async function inThrowaway<T>(run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const database = await createThrowawayDatabase('ak_eval');
  const pool = createPool(database.url, 4);
  try {
    await migrate(pool);
    return await run(pool);
  } finally {
    await pool.end();
    await database.drop();
  }
}

const results: Record<string, unknown> = { at: new Date().toISOString(), noiseRecords: noise, parts: splits };

/** Recall of the parts asked for only. */
function partsOf<T extends Pick<Measured, 'recall'>>(report: T): T {
  return { ...report, recall: Object.fromEntries(splits.map((split) => [split, report.recall[split]])) as T['recall'] };
}

if (values.set !== 'generated') {
  const cases = values.part === 'tuning' ? loadRealPart('tuning') : loadRealCases();
  const counts = realCounts(cases);
  const measured = await inThrowaway(async (pool) =>
    measureQueries(pool, await seedCases(pool, noise, cases, []), realQueries(cases)),
  );
  const queries = measured.recall.heldout.all.queries + measured.recall.tuning.all.queries;
  console.log(
    `real-material evaluation: ${cases.length} literals across ${counts.products} products, ${queries} queries, ${noise} noise records, mode=auto`,
  );
  for (const split of splits) {
    const c = counts[split];
    console.log(
      `  ${split}: ${c.literals} literals, ${c.products} products, ${c.addresses} threads from ${c.sources} repositories or sites`,
    );
  }
  console.log(formatMeasured(measured, splits));
  results.real = { counts: values.part === 'tuning' ? { tuning: counts.tuning } : counts, ...partsOf(measured) };
}

if (values.set !== 'real') {
  if (values.set === 'both') console.log('');
  const report = await inThrowaway(async (pool) => evaluateSearch(pool, await seedEvaluation(pool, noise), noise));
  console.log(`earlier evaluation (generated machine variants and substrings) — ${formatEvalReport(report, splits)}`);
  results.generated = partsOf(report);
}

// A tuning-only run keeps its own file, so no held-out figure is written by it either.
const out = new URL(
  values.part === 'tuning' ? './results/search-eval-tuning.json' : './results/search-eval.json',
  import.meta.url,
);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${out.pathname}`);
