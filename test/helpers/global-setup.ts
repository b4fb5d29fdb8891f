/**
 * Once per test run: a template database with every migration applied.
 * Each test file then clones it (fast) so files never see each other's rows.
 */
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { createPool } from '../../db/pool.ts';
import { adminUrl, databaseUrl } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const template = `ak_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const pool = createPool(databaseUrl(template), 1);
  await migrate(pool);
  await pool.end();
  project.provide('templateDatabase', template);
  return async function teardown() {
    // Clones made by test files are dropped by the files; this catches leftovers.
    const left = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1::text OR datname = $2::text`,
      [`ak_test_${process.pid}_%`, template],
    );
    for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}
