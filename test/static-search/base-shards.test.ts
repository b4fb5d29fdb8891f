import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFolders } from '../../site/lib/search/pagefind.ts';
import { buildBaseTier, readBaseIds, readBaseInfo } from '../../static-search/base-tier.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-shards-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A record page as the worker writes it, as far as Pagefind reads it. */
async function page(folder: string, id: string, words: string): Promise<string> {
  await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(
    path.join(dir, folder, `${id}.html`),
    `<!doctype html><html lang="en"><head><title>${id}</title></head><body><article data-pagefind-body><h1>${words}</h1></article></body></html>`,
  );
  return `/${folder}/${id}`;
}

const pageCount = async (shard: string) => {
  const entry = JSON.parse(await readFile(path.join(dir, shard.slice(1), 'pagefind-entry.json'), 'utf8'));
  return Object.values(entry.languages as Record<string, { page_count: number }>)[0]!.page_count;
};

describe('the base tier in shards (real Pagefind, real files)', () => {
  it('cuts the pages, in name order, into shards of at most shardPages, and knows every page’s result id', async () => {
    const urls = [
      await page('problems', 'prb_a', 'alpha'),
      await page('problems', 'prb_b', 'bravo'),
      await page('problems', 'prb_c', 'charlie'),
      await page('solutions', 'sol_a', 'delta'),
      await page('discussions', 'dsc_a', 'echo'),
    ];
    const built = await buildBaseTier(dir, 7, 2);
    expect(built).toMatchObject({ pages: 5, shards: 3 });
    const info = (await readBaseInfo(dir))!;
    expect(info).toMatchObject({ coversRun: 7, pages: 5 });
    expect(info.shards).toEqual([0, 1, 2].map((n) => `/pagefind/base-${info.base}/${n}/`));
    expect(await Promise.all(info.shards.map(pageCount))).toEqual([2, 2, 1]);
    const { base, ids } = await readBaseIds(dir);
    expect(base).toBe(info.base);
    expect([...ids.keys()].sort()).toEqual([...urls].sort());
    // Each id is a fragment of exactly one shard.
    for (const id of ids.values()) {
      const holders = [];
      for (const shard of info.shards)
        if ((await readdir(path.join(dir, shard.slice(1), 'fragment'))).includes(`${id}.pf_fragment`))
          holders.push(shard);
      expect(holders).toHaveLength(1);
    }
    // No prebuilt UIs in any shard.
    for (const shard of info.shards)
      expect(
        (await readdir(path.join(dir, shard.slice(1)))).filter((f) =>
          /pagefind-(ui|modular|component|highlight)/.test(f),
        ),
      ).toEqual([]);
  });

  it('publishes no shard for a corpus without pages', async () => {
    expect(await buildBaseTier(dir, 0, 2)).toMatchObject({ pages: 0, shards: 0 });
    expect((await readBaseInfo(dir))!.shards).toEqual([]);
  });

  it('deletes an unsharded base’s files and bases older than the previous, and leaves the recent tier and the manifest', async () => {
    await page('problems', 'prb_a', 'alpha');
    const publicDir = path.join(dir, 'pagefind');
    // What a base from before shards left in the public folder.
    await mkdir(path.join(publicDir, 'index'), { recursive: true });
    await mkdir(path.join(publicDir, 'recent'), { recursive: true });
    await writeFile(path.join(publicDir, 'index', 'en_1.pf_index'), 'x');
    await writeFile(path.join(publicDir, 'pagefind-entry.json'), '{}');
    await writeFile(path.join(publicDir, 'recent', 'pagefind-entry.json'), '{}');
    await writeFile(path.join(publicDir, 'tiers.json'), '{}');
    await writeFile(path.join(dir, '.pagefind-generation.json'), '[]');
    await buildBaseTier(dir, 1, 2);
    const first = (await readBaseInfo(dir))!.base;
    expect((await readdir(publicDir)).sort()).toEqual([`base-${first}`, 'recent', 'tiers.json']);
    await expect(readFile(path.join(dir, '.pagefind-generation.json'))).rejects.toThrow();
    await buildBaseTier(dir, 2, 2);
    const second = (await readBaseInfo(dir))!.base;
    await buildBaseTier(dir, 3, 2);
    const third = (await readBaseInfo(dir))!.base;
    expect((await readdir(publicDir)).sort()).toEqual(
      [`base-${second}`, `base-${third}`, 'recent', 'tiers.json'].sort(),
    );
    expect(first).not.toBe(second);
  });

  it('reads a manifest from before shards as a base at /pagefind/', () => {
    expect(indexFolders({ base_pages: 3, recent: true, superseded: [] })).toEqual({
      primary: '/pagefind/',
      merged: ['/pagefind/recent/'],
    });
    expect(
      indexFolders({
        base_pages: 3,
        base_shards: ['/pagefind/base-x/0/', '/pagefind/base-x/1/'],
        recent: false,
        superseded: [],
      }),
    ).toEqual({ primary: '/pagefind/base-x/0/', merged: ['/pagefind/base-x/1/'] });
  });
});
