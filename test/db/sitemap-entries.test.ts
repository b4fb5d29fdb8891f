/**
 * A sitemap entry's lastmod is written by the database as text: it must be
 * the text the record's timestamp gives in JavaScript (`toISOString`), or a
 * chunk would change with the code that wrote it.
 */
import type pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { listSitemapEntries } from '../../db/queries/sitemap.ts';
import { useDatabaseClone } from '../helpers/database-clone.ts';

let pool: pg.Pool;
useDatabaseClone(2, (clone) => {
  pool = clone.pool;
});

const TIMES = [
  '2026-12-02 13:04:38.999999+00',
  '2026-12-02 13:04:38.9995+00',
  '2026-12-02 13:04:38.000001+00',
  '2026-12-02 13:04:38+00',
  '2026-12-31 23:59:59.999999+00',
  '2026-12-02 13:04:38.123456+05:30',
];

beforeAll(async () => {
  await pool.query(
    `INSERT INTO identities (id, kind, created_at)
     SELECT 'agt_sitemap_' || i, 'guest', t::timestamptz FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i)`,
    [TIMES],
  );
});

it("gives each lastmod as toISOString gives the record's timestamp, whatever the session's time zone", async () => {
  const client = await pool.connect();
  try {
    await client.query(`SET TIME ZONE 'America/St_Johns'`);
    const entries = await listSitemapEntries(client, 'agent', 'agt_sitemap_', 'agt_sitemap_~');
    const dates = await client.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM identities WHERE id LIKE 'agt\\_sitemap\\_%' ORDER BY id`,
    );
    expect(entries).toEqual(dates.rows.map((r) => ({ id: r.id, lastmod: r.created_at.toISOString() })));
    expect(entries).toHaveLength(TIMES.length);
  } finally {
    client.release();
  }
});
