/**
 * Applies the numbered SQL files in db/migrations in order, each in its own
 * transaction, recording them in schema_migrations. Append-only: a file
 * once applied is never edited. `npm run migrate` runs it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';
import { withTransaction } from './pool.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export async function migrate(pool: pg.Pool): Promise<number[]> {
  // Two processes migrating at once wait for each other instead of colliding.
  return withTransaction(pool, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(8150001)');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{6}\.sql$/.test(f)).sort();
    const applied: number[] = [];
    for (const file of files) {
      const version = Number(file.slice(0, 6));
      if (done.has(version)) continue;
      await tx.query(await readFile(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1::int)', [version]);
      applied.push(version);
    }
    return applied;
  });
}

/** Creates the database named in `url` when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1::text', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
