/**
 * Index runs of the recent tier one after another over one folder, as the
 * worker makes them: each run keeps what it read and published for the next
 * (static-search/run-memo.ts), and must still answer from the pages and
 * files as they are now. Real Pagefind, real files, searched with the
 * published pagefind.js over HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notePendingRecords, updateSearchIndex, type TierManifest } from '../../static-search/tiers.ts';
import { readBaseIds, readBaseInfo } from '../../static-search/base-tier.ts';
import { createFragmentMemo, createPublishedMemo } from '../../static-search/run-memo.ts';
import { searchPublished } from '../helpers/pagefind.ts';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-recent-runs-'));
  // The projections folder as nginx serves it: a record page without its suffix, everything else as it is.
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x').pathname;
    readFile(path.join(dir, url.slice(1)))
      .then((bytes) => res.writeHead(200).end(bytes))
      .catch(() => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Renders a problem page as the worker does: a new file renamed into place, noted for the index. */
async function render(id: string, words: string): Promise<void> {
  await mkdir(path.join(dir, 'problems'), { recursive: true });
  const file = path.join(dir, 'problems', `${id}.html`);
  await writeFile(
    `${file}.tmp`,
    `<!doctype html><html lang="en"><head><title>${id}</title></head><body><article data-pagefind-body><h1>${words}</h1></article></body></html>`,
  );
  await rename(`${file}.tmp`, file);
  await notePendingRecords(dir, [{ type: 'problem', id }]);
}

async function remove(id: string): Promise<void> {
  await unlink(path.join(dir, 'problems', `${id}.html`));
  await notePendingRecords(dir, [{ type: 'problem', id }]);
}

const find = (term: string) => searchPublished(base, dir, term);
const manifest = async () => JSON.parse(await readFile(path.join(dir, 'pagefind/tiers.json'), 'utf8')) as TierManifest;

describe('index runs of the recent tier, one after another', () => {
  it('finds a page by the words of its latest render, also when the new text has the same length', async () => {
    await render('prb_base', 'foundation');
    expect(await updateSearchIndex(dir)).toMatchObject({ tier: 'base' });
    await render('prb_one', 'walrus');
    await render('prb_two', 'narwhal');
    await updateSearchIndex(dir);
    expect(await find('walrus')).toEqual(['/problems/prb_one']);
    // Same length, same folder: only the file is new.
    await render('prb_one', 'pelican');
    await updateSearchIndex(dir);
    expect(await find('pelican')).toEqual(['/problems/prb_one']);
    expect(await find('walrus')).toEqual([]);
    expect(await find('narwhal')).toEqual(['/problems/prb_two']);
  });

  it('drops a removed page, and a later run does not bring it back', async () => {
    await render('prb_gone', 'ocelot');
    await updateSearchIndex(dir);
    expect(await find('ocelot')).toEqual(['/problems/prb_gone']);
    await remove('prb_gone');
    await updateSearchIndex(dir);
    expect(await find('ocelot')).toEqual([]);
    await render('prb_other', 'lemur');
    await updateSearchIndex(dir);
    expect(await find('ocelot')).toEqual([]);
    expect(await find('lemur')).toEqual(['/problems/prb_other']);
  });

  it('supersedes a base page while its recent copy differs, and stops once the page is as the base has it', async () => {
    await render('prb_base', 'scaffold');
    await updateSearchIndex(dir);
    const superseded = (await manifest()).superseded;
    expect(superseded).toHaveLength(1);
    expect(await find('foundation')).toEqual([]);
    expect(await find('scaffold')).toEqual(['/problems/prb_base']);
    // Back to the base's bytes: its fragment is the base's again, read afresh rather than remembered.
    await render('prb_base', 'foundation');
    await updateSearchIndex(dir);
    expect((await manifest()).superseded).toEqual([]);
    expect(await find('foundation')).toEqual(['/problems/prb_base']);
  });

  it('writes again a published file that was changed or deleted behind its back, with the bytes a run gives', async () => {
    await updateSearchIndex(dir);
    const entry = path.join(dir, 'pagefind/recent/pagefind-entry.json');
    const bytes = await readFile(entry);
    // Damaged in place (same length), past the file system's clock tick, and then deleted: each time the next run
    // publishes it again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(entry, Buffer.alloc(bytes.length, 0x20));
    expect((await updateSearchIndex(dir)).written).toBeGreaterThan(0);
    expect(await readFile(entry)).toEqual(bytes);
    await unlink(entry);
    await updateSearchIndex(dir);
    expect(await readFile(entry)).toEqual(bytes);
    expect(await find('pelican')).toEqual(['/problems/prb_one']);
  });
});

describe('the memos of a run', () => {
  it('reads a fragment again when its bytes differ under the same name, and forgets fragments a run did not see', () => {
    const memo = createFragmentMemo();
    let parses = 0;
    const idsOf = (content: number[], url: string) =>
      memo.idsOf({ path: 'fragment/a.pf_fragment', content: Uint8Array.from(content) }, () => {
        parses++;
        return [[url, 'a']];
      });
    expect(idsOf([1, 2], '/problems/prb_a')).toEqual([['/problems/prb_a', 'a']]);
    memo.endRun();
    expect(idsOf([1, 2], '/problems/prb_x')).toEqual([['/problems/prb_a', 'a']]);
    memo.endRun();
    expect(idsOf([1, 3], '/problems/prb_b')).toEqual([['/problems/prb_b', 'a']]);
    memo.endRun();
    memo.endRun();
    expect(idsOf([1, 3], '/problems/prb_c')).toEqual([['/problems/prb_c', 'a']]);
    expect(parses).toBe(3);
  });

  it('counts a published file as held only while nothing has touched it', async () => {
    const memo = createPublishedMemo();
    const file = path.join(dir, 'held.txt');
    await writeFile(file, 'abc');
    memo.published(file, Buffer.from('abc'));
    memo.endRun();
    expect(memo.holds(file, Buffer.from('abc'))).toBe(true);
    expect(memo.holds(file, Buffer.from('abd'))).toBe(false);
    memo.endRun();
    // Past the file system's clock tick (a few ms), so the write in place gives the file a new ctime.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(file, 'abc');
    expect(memo.holds(file, Buffer.from('abc'))).toBe(false);
  });
});

describe('the first base an index run builds', () => {
  it('is the same on this thread (a small corpus) as in a thread of its own (past compactAt pages)', async () => {
    const built: { files: Map<string, string>; ids: string[] }[] = [];
    for (const compactAt of [undefined, 1]) {
      const folder = await mkdtemp(path.join(tmpdir(), 'ak-first-base-'));
      try {
        await mkdir(path.join(folder, 'problems'), { recursive: true });
        for (const [id, words] of [
          ['prb_a', 'alpha'],
          ['prb_b', 'bravo'],
          ['prb_c', 'charlie'],
        ])
          await writeFile(
            path.join(folder, 'problems', `${id}.html`),
            `<!doctype html><html lang="en"><head><title>${id}</title></head><body><article data-pagefind-body><h1>${words}</h1></article></body></html>`,
          );
        expect(await updateSearchIndex(folder, { compactAt, shardPages: 2 })).toMatchObject({ tier: 'base', pages: 3 });
        const info = (await readBaseInfo(folder))!;
        const files = new Map<string, string>();
        for (const [n, shard] of info.shards.entries()) {
          const root = path.join(folder, shard.slice(1));
          for (const file of (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) =>
            e.isFile(),
          )) {
            const full = path.join(file.parentPath, file.name);
            files.set(`${n}/${path.relative(root, full)}`, (await readFile(full)).toString('base64'));
          }
        }
        built.push({ files, ids: [...(await readBaseIds(folder)).ids.entries()].map((e) => e.join(' ')).sort() });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }
    expect(built[0]!.files.size).toBeGreaterThan(0);
    expect(built[1]).toEqual(built[0]);
  });
});
