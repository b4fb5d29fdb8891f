/**
 * `npm run seed -- --records 100000 [--database-url postgres://…] [--seed 1]`:
 * creates and migrates the database if needed, then bulk-inserts realistic
 * records (bench/seed/). Without --database-url it uses DATABASE_URL.
 * The records' search documents are built by one catch-up after the load
 * (set-based batches), not statement by statement per record.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { buildSearchChampions, searchDocumentsCaughtUp } from '../db/queries/search.ts';
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
const pool = createPool(url, 2);
try {
  await migrate(pool);
  const started = Date.now();
  const summary = await seedRecords(pool, {
    records,
    seed: Number(values.seed),
    onProgress: (written) => process.stderr.write(`\rseeded ${written}/${records}`),
    catchUp: false,
  });
  process.stderr.write('\n');
  const loadSeconds = (Date.now() - started) / 1000;
  const searchStarted = Date.now();
  await searchDocumentsCaughtUp(pool);
  await pool.query('ANALYZE search_documents');
  const searchSeconds = (Date.now() - searchStarted) / 1000;
  // What the worker's compaction does after a bulk load: the champion lists (db/migrations/000016.sql).
  const championsStarted = Date.now();
  await buildSearchChampions(pool);
  const championsSeconds = (Date.now() - championsStarted) / 1000;
  const { sampleProblemIds: _, ...counts } = summary;
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify({
      ...counts,
      seconds,
      ms_per_record: Math.round((seconds * 1000 * 1000) / records) / 1000,
      load_seconds: loadSeconds,
      search_seconds: searchSeconds,
      champions_seconds: championsSeconds,
    }),
  );
} finally {
  await pool.end();
}
