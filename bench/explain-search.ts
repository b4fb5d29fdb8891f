/**
 * `node bench/explain-search.ts --database-url URL [--mode auto] [--plans] [--sample literal|truncated|symptom --seed N] [-- "query"]`:
 * runs one search on an already seeded database (`npm run seed`) in a
 * transaction bounded as the API bounds it, once to warm the session, then
 * again printing each statement's time and, with --plans, its EXPLAIN
 * (ANALYZE, BUFFERS). --sample draws the query as bench/search-bench.ts does.
 */
import { parseArgs } from 'node:util';
import { createPool, withTransaction } from '../db/pool.ts';
import { runSearch } from '../database-search/run-search.ts';
import { limitSearchStatements } from '../db/queries/search.ts';
import { SearchParamsSchema } from '../core/schemas/search-params.ts';
import { sampleLiteral, sampleSymptom, sampleTruncated } from './seed/corpus.ts';
import { createRandom } from './seed/random.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'database-url': { type: 'string' },
    mode: { type: 'string', default: 'auto' },
    plans: { type: 'boolean', default: false },
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const pool = createPool(values['database-url']!, 2);
try {
  const samplers = { literal: sampleLiteral, truncated: sampleTruncated, symptom: sampleSymptom } as Record<
    string,
    (r: ReturnType<typeof createRandom>) => string
  >;
  const q = values.sample ? samplers[values.sample]!(createRandom(Number(values.seed))) : (positionals[0] ?? '');
  console.log(`q: ${JSON.stringify(q)}`);
  const params = SearchParamsSchema.parse({ q, mode: values.mode });
  await withTransaction(pool, async (tx) => {
    await limitSearchStatements(tx, 30_000);
    const explaining = {
      async query(text: string, p?: unknown[]) {
        const started = performance.now();
        const result = await tx.query(text, p);
        const ms = performance.now() - started;
        console.log(`-- ${ms.toFixed(2)} ms, ${result.rowCount} rows: ${text.replace(/\s+/g, ' ').slice(0, 100)}`);
        if (values.plans && /^\s*(WITH|SELECT)/i.test(text)) {
          const plan = await tx.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, p);
          console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
        }
        return result;
      },
    };
    // Once to warm the session's caches, then again explained.
    await runSearch(tx, params);
    const result = await runSearch(explaining as never, params);
    console.log(
      `total ${result.coverage.total} tried ${result.coverage.modes_tried.join(',')} first: ${result.items[0]?.title ?? '-'}`,
    );
  });
} finally {
  await pool.end();
}
