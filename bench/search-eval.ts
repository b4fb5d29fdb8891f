/**
 * `npm run eval:search`: the search evaluations, each in its own throwaway
 * database among 3,000 generated records, mode auto, recall@1, recall@7 and
 * MRR per query kind, held-out and tuning apart; writes
 * bench/results/search-eval.json.
 * - First the real-material evaluation (bench/eval-real/): literals and the
 *   forms other reporters posted for the same error, from public threads.
 * - Then the earlier evaluation (test/database-search/eval-cases*.ts), whose
 *   machine variants and substrings are generated from its literals.
 * `--set real` or `--set generated` runs one of them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { evaluateSearch, formatEvalReport, formatMeasured, measureQueries, seedCases, seedEvaluation } from './lib/search-evaluation.ts';
import { loadRealCases, realCounts, realQueries } from './lib/real-evaluation.ts';
import { createThrowawayDatabase } from './lib/throwaway-database.ts';

const { values } = parseArgs({ options: { noise: { type: 'string', default: '3000' }, set: { type: 'string', default: 'both' } } });
const noise = Number(values.noise);
if (!['both', 'real', 'generated'].includes(values.set)) throw new Error('--set is real, generated or both');

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

const results: Record<string, unknown> = { at: new Date().toISOString(), noiseRecords: noise };

if (values.set !== 'generated') {
  const cases = loadRealCases();
  const counts = realCounts(cases);
  const measured = await inThrowaway(async (pool) => measureQueries(pool, await seedCases(pool, noise, cases, []), realQueries(cases)));
  const queries = measured.recall.heldout.all.queries + measured.recall.tuning.all.queries;
  console.log(`real-material evaluation: ${cases.length} literals across ${counts.products} products, ${queries} queries, ${noise} noise records, mode=auto`);
  for (const split of ['tuning', 'heldout'] as const) {
    const c = counts[split];
    console.log(`  ${split}: ${c.literals} literals, ${c.products} products, ${c.addresses} threads from ${c.sources} repositories or sites`);
  }
  console.log(formatMeasured(measured));
  results.real = { counts, ...measured };
}

if (values.set !== 'real') {
  if (values.set === 'both') console.log('');
  const report = await inThrowaway(async (pool) => evaluateSearch(pool, await seedEvaluation(pool, noise), noise));
  console.log(`earlier evaluation (generated machine variants and substrings) — ${formatEvalReport(report)}`);
  results.generated = report;
}

const out = new URL('./results/search-eval.json', import.meta.url);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${out.pathname}`);
