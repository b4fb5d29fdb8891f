/** A fresh, empty database for one benchmark run, dropped afterwards (the pattern of test/helpers/database.ts). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server to make it on: BENCH_DATABASE_URL, else the local one. */
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function urlOf(name: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createThrowawayDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await onAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    url: urlOf(name),
    drop: () => onAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
