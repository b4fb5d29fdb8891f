/**
 * The set-up most database tests share: a clone of the migrated template and
 * a pool on it, made before the file's tests and dropped after them.
 * Registered first, its hooks run before the file's own `beforeAll`, so
 * those can already use the pool.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import type pg from 'pg';
import { createPool } from '../../db/pool.ts';
import { cloneDatabase } from './database.ts';

export interface DatabaseClone {
  url: string;
  pool: pg.Pool;
}

/** `ready` receives the clone once it exists (assign its pool to the file's own variable there). */
export function useDatabaseClone(connections: number, ready: (clone: DatabaseClone) => void): void {
  let database: Awaited<ReturnType<typeof cloneDatabase>> | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    database = await cloneDatabase(inject('templateDatabase'));
    pool = createPool(database.url, connections);
    ready({ url: database.url, pool });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
}
