/** `npm run migrate`: create the database if needed and apply migrations (BullMQ's too, without Redis). */
import { loadConfig } from '../core/config.ts';
import { prepareQueueStore, queueBackendOf } from '../infra/queues.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';

const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, 1);
try {
  const applied = await migrate(pool);
  await prepareQueueStore(queueBackendOf(config), pool);
  console.log(applied.length ? `applied migrations ${applied.join(', ')}` : 'database is up to date');
} finally {
  await pool.end();
}
