/**
 * A rebuild of a kind whose folder is missing or empty writes it in a
 * staging folder and renames it into place (worker/jobs/rebuild-staging.ts).
 * These check what a reader and the worker rely on: nothing shows before the
 * folder is whole, a render the worker made meanwhile is never replaced by an
 * older one, and the files are the ones an in-place write gives.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRecords } from '../../bench/seed/seed-records.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import { loadHtmlRenderer, type HtmlRenderer } from '../../projections/html.ts';
import { writeFreshProjectionFileSync } from '../../projections/publish-file.ts';
import { createThreadedWriter, inlineWriter } from '../../projections/publish-pool.ts';
import { PathOutsideRootError } from '../../projections/safe-path.ts';
import { retireOutdatedProjections } from '../../projections/read-your-writes.ts';
import { listAllRecords } from '../../worker/jobs/rebuild.ts';
import { abandonStaging, finishStaging, prepareStaging, stagingWriter } from '../../worker/jobs/rebuild-staging.ts';
import { emptyCounts, renderRecords } from '../../worker/render/render-record.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let html: HtmlRenderer;
let problems: RecordRef[];
const dirs: string[] = [];

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  await seedRecords(stack.pool, { records: 20 });
  html = await loadHtmlRenderer(stack.config.ASTRO_ENTRY);
  problems = (await listAllRecords(stack.pool)).filter((r) => r.type === 'problem').slice(0, 2);
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await stack.close();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ak-staging-'));
  dirs.push(dir);
  return dir;
}

/** Every file of `folder` with its bytes and mtime. */
async function snapshot(dir: string, folder: string): Promise<Record<string, { bytes: string; mtimeMs: number }>> {
  const out: Record<string, { bytes: string; mtimeMs: number }> = {};
  for (const name of (await readdir(path.join(dir, folder))).sort()) {
    const file = path.join(dir, folder, name);
    out[name] = { bytes: (await readFile(file)).toString('base64'), mtimeMs: (await stat(file)).mtimeMs };
  }
  return out;
}

describe('a rebuild staging an empty folder', () => {
  it('shows nothing until the folder is whole, then the same files and stamps as writes in place', async () => {
    const dir = await tempDir();
    const staging = prepareStaging(
      dir,
      problems.map((r) => r.type),
    )!;
    expect([...staging.folders]).toEqual(['problems']);
    const counts = emptyCounts();
    await renderRecords(stack.pool, html, dir, problems, counts, stagingWriter(inlineWriter, staging));
    expect(existsSync(path.join(dir, 'problems'))).toBe(false);

    await finishStaging(stack.pool, html, dir, staging, counts);
    expect(counts).toEqual({ written: 6, unchanged: 0, removed: 0 });
    const reference = await tempDir();
    await renderRecords(stack.pool, html, reference, problems);
    expect(await snapshot(dir, 'problems')).toEqual(await snapshot(reference, 'problems'));
    expect(await readdir(dir)).toEqual(['problems']);
  });

  it('gives the same files from writer threads, whether the threads or the sender compress', async () => {
    // Every seeded record: more than one message's worth (publish-pool.ts packs up to 16 records per message).
    const all = await listAllRecords(stack.pool);
    expect(all.length).toBeGreaterThan(16);
    const folders = [...new Set(all.map((r) => COLLECTION[r.type]))];
    const reference = await tempDir();
    await renderRecords(stack.pool, html, reference, all);
    // 0: the sender compresses every file; Infinity: the thread compresses every file.
    for (const compressWhenQueued of [0, Infinity]) {
      const dir = await tempDir();
      const staging = prepareStaging(
        dir,
        all.map((r) => r.type),
      )!;
      const counts = emptyCounts();
      const writer = stagingWriter(createThreadedWriter(1, { compressWhenQueued }), staging);
      try {
        await renderRecords(stack.pool, html, dir, all, counts, writer);
      } finally {
        await writer.close();
      }
      await finishStaging(stack.pool, html, dir, staging, counts);
      expect(counts).toEqual({ written: 3 * all.length, unchanged: 0, removed: 0 });
      for (const folder of folders)
        expect(await snapshot(dir, folder), folder).toEqual(await snapshot(reference, folder));
    }
  });

  it('merges into a live folder the worker wrote to meanwhile, rendering those records again from their current state', async () => {
    const dir = await tempDir();
    const [a, b] = problems as [RecordRef, RecordRef];
    const staging = prepareStaging(dir, ['problem'])!;
    const counts = emptyCounts();
    await renderRecords(stack.pool, html, dir, [a, b], counts, stagingWriter(inlineWriter, staging));
    // A render of `a` landed in the live folder while the rebuild ran (here: bytes the rebuild would not give).
    await mkdir(path.join(dir, 'problems'));
    await writeFile(path.join(dir, 'problems', `${a.id}.json`), 'another render');

    await finishStaging(stack.pool, html, dir, staging, counts);
    expect(counts).toEqual({ written: 6, unchanged: 0, removed: 0 });
    const reference = await tempDir();
    await renderRecords(stack.pool, html, reference, [a, b]);
    expect(await snapshot(dir, 'problems')).toEqual(await snapshot(reference, 'problems'));
    expect(await readdir(dir)).toEqual(['problems']);
  });

  it('drops a staged copy older than a receipt sent while it staged, so the rename cannot publish it', async () => {
    const dir = await tempDir();
    const [a, b] = problems as [RecordRef, RecordRef];
    const staging = prepareStaging(dir, ['problem'])!;
    const counts = emptyCounts();
    await renderRecords(stack.pool, html, dir, [a, b], counts, stagingWriter(inlineWriter, staging));
    const stagedRevision = async (ref: RecordRef) =>
      JSON.parse(await readFile(path.join(staging.root, 'problems', `${ref.id}.json`), 'utf8')).current_revision;
    // An edit of `a` committed while the rebuild ran: its receipt is sent before the rename. A replay of
    // `b`'s receipt at the revision staged changes nothing.
    await retireOutdatedProjections(stack.pool, dir, a, (await stagedRevision(a)) + 1);
    await retireOutdatedProjections(stack.pool, dir, b, await stagedRevision(b));

    await finishStaging(stack.pool, html, dir, staging, counts);
    const live = await readdir(path.join(dir, 'problems'));
    // No file of `a`: a reader renders it from the database, at the receipt's revision.
    expect(live.filter((name) => name.startsWith(a.id))).toEqual([]);
    expect(live).toEqual(expect.arrayContaining([`${b.id}.html`, `${b.id}.json`, `${b.id}.md`]));
  });

  it('leaves folders that have files in place and removes staging folders of rebuilds that died', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'problems'));
    await writeFile(path.join(dir, 'problems', 'prb_00000000000000000000000000.json'), '{}');
    const dead = path.join(dir, '.rebuild-dead');
    await mkdir(path.join(dead, 'problems'), { recursive: true });
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const p of [path.join(dead, 'problems'), dead]) await utimes(p, hoursAgo, hoursAgo);
    const running = path.join(dir, '.rebuild-running');
    await mkdir(path.join(running, 'problems'), { recursive: true });

    expect(prepareStaging(dir, ['problem'])).toBeNull();
    const staging = prepareStaging(dir, ['problem', 'solution'])!;
    expect([...staging.folders]).toEqual(['solutions']);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(running)).toBe(true);
    abandonStaging(staging);
    expect(existsSync(staging.root)).toBe(false);
  });
});

describe('a fresh write', () => {
  it('refuses to replace a file, and any path outside its root', async () => {
    const dir = await tempDir();
    writeFreshProjectionFileSync(dir, 'problems/x.json', Buffer.from('one'));
    expect(() => writeFreshProjectionFileSync(dir, 'problems/x.json', Buffer.from('two'))).toThrow(/EEXIST/);
    expect(await readFile(path.join(dir, 'problems/x.json'), 'utf8')).toBe('one');
    expect(() => writeFreshProjectionFileSync(dir, '../x.json', Buffer.from('three'))).toThrow(PathOutsideRootError);
  });
});
