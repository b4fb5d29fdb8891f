/**
 * The in-process render (a view from the read model; JSON and Markdown as
 * pure functions of it; HTML by the built site's renderPage) gives, for a
 * fixed set of records that stresses escaping, exactly the bytes in
 * test/fixtures/projections. Those were first written by the HTTP-hop render
 * this replaced (pages that queried the database themselves, behind a
 * loopback server), and both renders were byte-identical on them before that
 * path was removed; a deliberate template change rewrites them since.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createPool } from '../../db/pool.ts';
import { FORMATS, projectionFile } from '../../projections/files.ts';
import { loadHtmlRenderer, type HtmlRenderer } from '../../projections/html.ts';
import { renderProjections } from '../../projections/render.ts';
import { buildRecordView } from '../../read-model/record-view.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { FIXTURE_NOW, fixtureRecords, insertFixtureRecords } from '../helpers/record-fixtures.ts';

const ENTRY = path.resolve('dist/server/entry.mjs');
/** The bytes both renders gave (see above), committed; `UPDATE_PROJECTION_FIXTURES=1` rewrites them after a deliberate template change. */
const EXPECTED = path.resolve('test/fixtures/projections');

async function expectedBytes(file: string, rendered: Buffer): Promise<Buffer> {
  if (process.env.UPDATE_PROJECTION_FIXTURES === '1') {
    await mkdir(path.dirname(path.join(EXPECTED, file)), { recursive: true });
    await writeFile(path.join(EXPECTED, file), rendered);
  }
  return readFile(path.join(EXPECTED, file));
}

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let html: HtmlRenderer;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
  await insertFixtureRecords(pool);
  html = await loadHtmlRenderer(ENTRY);
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('rendering in-process', () => {
  it.each(fixtureRecords().map((ref) => [ref.type, ref.id, ref] as const))(
    'gives the %s %s the HTML, JSON and Markdown bytes the HTTP-hop render gave',
    async (_type, _id, ref) => {
      const view = await buildRecordView(pool, ref, undefined, FIXTURE_NOW);
      expect(view).not.toBeNull();
      const rendered = await renderProjections(html, view!);
      for (const format of FORMATS) {
        const expected = await expectedBytes(projectionFile(ref, format), rendered[format]);
        expect(rendered[format].toString('utf8'), `${format} of ${ref.id}`).toBe(expected.toString('utf8'));
        expect(rendered[format].equals(expected)).toBe(true);
      }
    },
  );
});
