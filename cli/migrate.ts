/**
 * `npm run migrate`: create the database if needed and apply migrations
 * (BullMQ's too, without Redis). Then the data step: once per version of the
 * secret scanner's rules, scan the stored records (cli/redact-stored.ts);
 * while a full rebuild is owed (that scan redacted something, or an earlier
 * one whose rebuild never ran did), one is queued for the worker, which
 * re-renders every projection.
 */
import { loadConfig } from '../core/config.ts';
import { REBUILD_JOB, RENDER_QUEUE } from '../core/queue-contract.ts';
import { createQueue, prepareQueueStore, queueBackendOf } from '../infra/queues.ts';
import { formatCounts, redactStoredOncePerRules } from './redact-stored.ts';
import { owedRebuilds } from '../db/queries/owed-rebuilds.ts';
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
  if (counts) console.log(`secret scan of stored records:\n${formatCounts(counts)}`);
  // Owed by this scan, or by one whose rebuild never ran (cut short, or its job lost): the worker pays it.
  const owed = await owedRebuilds(pool);
  if (owed.length > 0) {
    const render = createQueue(queueBackendOf(config), RENDER_QUEUE, true);
    try {
      // One job per debt, however many migrations run before the worker pays it.
      await render.add(
        REBUILD_JOB,
        {},
        {
          jobId: `owed-rebuild-${owed.at(-1)!.since.getTime()}`,
          removeOnComplete: { age: 86_400 },
          removeOnFail: { age: 86_400 },
        },
      );
      console.log(
        `queued a full rebuild, owed since ${owed[0]!.since.toISOString()} (${owed.map((o) => o.reason).join(', ')})`,
      );
    } finally {
      await render.close();
    }
  }
} finally {
  await pool.end();
}
