/**
 * `npm run eval:search`: seeds the evaluation set, near misses and 3,000
 * generated records into a throwaway database, prints recall@1 and
 * recall@7 per mode and query kind, and writes bench/results/search-eval.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { evaluateSearch, formatEvalReport, seedEvaluation } from './lib/search-evaluation.ts';
import { createThrowawayDatabase } from './lib/throwaway-database.ts';

const { values } = parseArgs({ options: { noise: { type: 'string', default: '3000' } } });
const noise = Number(values.noise);

const database = await createThrowawayDatabase('ak_eval');
const pool = createPool(database.url, 4);
try {
  await migrate(pool);
  const seed = await seedEvaluation(pool, noise);
  const report = await evaluateSearch(pool, seed, noise);
  console.log(formatEvalReport(report));
  const out = new URL('./results/search-eval.json', import.meta.url);
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), ...report }, null, 2)}\n`);
  console.log(`wrote ${out.pathname}`);
} finally {
  await pool.end();
  await database.drop();
}
