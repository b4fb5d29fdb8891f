/**
 * A migrated database for one bench run, cloned by each bench's stack (the
 * role vitest's global setup plays for tests), and dropped at the end.
 */
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { createPool } from '../../db/pool.ts';
import { adminUrl, databaseUrl } from '../../test/helpers/database.ts';

export interface TemplateDatabase {
  name: string;
  drop(): Promise<void>;
}

export async function createTemplateDatabase(): Promise<TemplateDatabase> {
  const name = `ak_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const pool = createPool(databaseUrl(name), 1);
  await migrate(pool).finally(() => pool.end());
  return {
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}
