/** `npm run migrate`: create the database if needed and apply migrations. */
import { loadConfig } from '../core/config.ts';
import { ensureDatabase, migrate } from './migrate.ts';
import { createPool } from './pool.ts';

const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, 1);
try {
  const applied = await migrate(pool);
  console.log(applied.length ? `applied migrations ${applied.join(', ')}` : 'database is up to date');
} finally {
  await pool.end();
}
