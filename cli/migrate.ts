/**
 * `npm run migrate`: create the database if needed and apply migrations
 * (BullMQ's too, without Redis). Then the data step: once per version of the
 * secret scanner's rules, scan the stored records (cli/redact-stored.ts);
 * when it redacted anything, a full rebuild is queued for the worker, which
 * re-renders every projection.
 */
import { loadConfig } from '../core/config.ts';
import { REBUILD_JOB, RENDER_QUEUE } from '../core/queue-contract.ts';
import { createQueue, prepareQueueStore, queueBackendOf } from '../infra/queues.ts';
import { formatCounts, redactStoredOncePerRules, totalRedacted } from './redact-stored.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';

const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, 1);
try {
  const applied = await migrate(pool);
  await prepareQueueStore(queueBackendOf(config), pool);
  console.log(applied.length ? `applied migrations ${applied.join(', ')}` : 'database is up to date');
  const counts = await redactStoredOncePerRules(pool);
  if (counts) {
    console.log(`secret scan of stored records:\n${formatCounts(counts)}`);
    if (totalRedacted(counts) > 0) {
      const render = createQueue(queueBackendOf(config), RENDER_QUEUE, true);
      try {
        await render.add(REBUILD_JOB, {}, { removeOnComplete: { age: 86_400 }, removeOnFail: { age: 86_400 } });
        console.log('queued a full rebuild to re-render the redacted records');
      } finally {
        await render.close();
      }
    }
  }
} finally {
  await pool.end();
}
