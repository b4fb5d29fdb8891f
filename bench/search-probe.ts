/**
 * `node bench/search-probe.ts <case-id>...`: seeds the evaluation (no noise)
 * into a throwaway database and prints, for each tuning query of the named
 * cases, the normalized query and the first candidates. For looking at
 * tuning misses; it refuses held-out cases, whose misses stay unseen.
 */
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { runSearch } from '../database-search/run-search.ts';
import { normalizeLiteral } from '../database-search/normalize.ts';
import { SearchParamsSchema } from '../core/schemas/search-params.ts';
import { evaluationQueries, seedEvaluation, splitOf } from './lib/search-evaluation.ts';
import { createThrowawayDatabase } from './lib/throwaway-database.ts';

const ids = process.argv.slice(2);
for (const id of ids) if (splitOf(id) === 'heldout') throw new Error(`${id} is held out`);
const database = await createThrowawayDatabase('ak_probe');
const pool = createPool(database.url, 2);
try {
  await migrate(pool);
  await seedEvaluation(pool, 0);
  for (const query of evaluationQueries().filter((q) => ids.includes(q.caseId))) {
    const result = await runSearch(pool, SearchParamsSchema.parse({ q: query.q, mode: 'auto', limit: '5' }));
    console.log(`\n[${query.caseId} ${query.kind}] ${JSON.stringify(normalizeLiteral(query.q).slice(0, 200))}`);
    for (const item of result.items)
      console.log(`   ${item.match.kind} ${item.match.coverage} ${item.type} ${item.title}`);
  }
} finally {
  await pool.end();
  await database.drop();
}
