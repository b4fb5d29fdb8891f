/**
 * The embedded PostgreSQL's socket: many connections share PGlite's one
 * session, and each query's extended-protocol exchange (Parse, Bind,
 * Describe, Execute, Sync) runs whole. Interleaved, a Bind met another
 * connection's statement ("bind message supplies 2 parameters, but prepared
 * statement "" requires 3") or a value landed in the wrong query. The
 * interleaving was seen in the launcher under load (renders, queue polls and
 * commits at once); these tests did not reproduce it against the old queue,
 * so they guard the new one's promises (answers to the right connection, a
 * transaction kept to its connection) rather than prove the fix.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../db/embedded.ts';
import { freePort } from '../helpers/ports.ts';

let dir: string;
let database: EmbeddedPostgres;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-pglite-'));
  database = await startEmbeddedPostgres(path.join(dir, 'data'), await freePort());
}, 300_000);
afterAll(async () => {
  await database?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the embedded database socket', () => {
  it('runs concurrent parameterised queries from many connections, each with its own parameters', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 8 });
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS mixed (a int, b text, c int)');
      // Writes among the reads: PGlite persists after each, which is when other connections' messages got in between.
      const queries = Array.from({ length: 240 }, (_, i) => {
        switch (i % 3) {
          case 0:
            return pool
              .query('INSERT INTO mixed (a) VALUES ($1::int) RETURNING a + 1 AS n', [i])
              .then((r) => Number(r.rows[0].n) === i + 1);
          case 1:
            return pool.query('SELECT $1::text || $2::text AS s', [`a${i}`, 'b']).then((r) => r.rows[0].s === `a${i}b`);
          default:
            return pool
              .query('INSERT INTO mixed (a, b, c) VALUES ($1::int, $2::text, $3::int) RETURNING a * 2 + c AS n', [
                i,
                'x',
                1,
              ])
              .then((r) => Number(r.rows[0].n) === i * 2 + 1);
        }
      });
      const results = await Promise.allSettled(queries);
      const failures = results
        .filter((r) => r.status === 'rejected')
        .map((r) => String((r as PromiseRejectedResult).reason));
      expect(failures).toEqual([]);
      expect(results.every((r) => r.status === 'fulfilled' && r.value)).toBe(true);
    } finally {
      await pool.end();
    }
  });

  it('keeps a transaction to its connection: others do not see its rows before the commit', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS t (n int)');
      const tx = await pool.connect();
      await tx.query('BEGIN');
      await tx.query('INSERT INTO t VALUES ($1::int)', [1]);
      const seen = pool.query('SELECT count(*)::int AS c FROM t');
      await tx.query('INSERT INTO t VALUES ($1::int)', [2]);
      await tx.query('COMMIT');
      tx.release();
      // The other connection waited for the transaction to end: it sees both rows or neither, never one.
      expect([0, 2]).toContain((await seen).rows[0].c);
    } finally {
      await pool.end();
    }
  });
});
