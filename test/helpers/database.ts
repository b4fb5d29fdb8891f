/** Throwaway databases for tests, cloned from the migrated template. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server tests run against; CI and developers set TEST_DATABASE_URL to move it. */
const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

export const adminUrl = () => databaseUrl('postgres');

export async function cloneDatabase(template: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ak_test_${process.ppid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}
