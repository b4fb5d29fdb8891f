/**
 * `npm run seed -- --records 100000 [--database-url postgres://…] [--seed 1]`:
 * creates and migrates the database if needed, then bulk-inserts realistic
 * records (bench/seed/). Without --database-url it uses DATABASE_URL.
 * The records' search documents are built after the load, and their indexes
 * after them (operations/bulk-load.ts), not statement by statement per record.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { finishBulkLoad, prepareBulkLoad } from '../operations/bulk-load.ts';
import { seedRecords } from './seed/seed-records.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000' },
    'database-url': { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1) throw new Error('--records must be a positive whole number');
const url = values['database-url'] ?? loadConfig().DATABASE_URL;

await ensureDatabase(url);
const pool = createPool(url, 4);
try {
  await migrate(pool);
  const started = Date.now();
  await prepareBulkLoad(pool);
  const summary = await seedRecords(pool, {
    records,
    seed: Number(values.seed),
    onProgress: (written) => process.stderr.write(`\rseeded ${written}/${records}`),
    catchUp: false,
  });
  process.stderr.write('\n');
  const loadSeconds = (Date.now() - started) / 1000;
  // Search documents, their indexes, and what the worker's compaction does after a bulk load: the champion lists.
  const finish = await finishBulkLoad(pool, { champions: true });
  const { sampleProblemIds: _, ...counts } = summary;
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify({
      ...counts,
      seconds,
      ms_per_record: Math.round((seconds * 1000 * 1000) / records) / 1000,
      load_seconds: loadSeconds,
      search_seconds: finish.search_seconds,
      documents_seconds: finish.documents_seconds,
      indexes_seconds: finish.indexes_seconds,
      analyze_seconds: finish.analyze_seconds,
      champions_seconds: finish.champions_seconds,
    }),
  );
} finally {
  await pool.end();
}
