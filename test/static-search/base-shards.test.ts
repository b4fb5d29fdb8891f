import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexGroups } from '../../site/lib/search/pagefind.ts';
import { buildBaseTier, readBaseIds, readBaseInfo } from '../../static-search/base-tier.ts';
import { servedUrl } from '../../static-search/build-index.ts';

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

  /** Each shard's pages, as the URL they are served at → the words Pagefind indexed, read from its fragments. */
  const contents = async (shard: string) => {
    const folder = path.join(dir, shard.slice(1), 'fragment');
    const pages: Record<string, string> = {};
    for (const name of await readdir(folder)) {
      const text = gunzipSync(await readFile(path.join(folder, name)))
        .toString('utf8')
        .replace(/^pagefind_dcd/, '');
      const fragment = JSON.parse(text) as { url: string; content: string };
      pages[servedUrl(fragment.url)] = fragment.content.trim();
    }
    return pages;
  };
  const everyShard = async () => Promise.all((await readBaseInfo(dir))!.shards.map(contents));

  it('builds again only the shards changed pages fall in, keeps the others where they are, with their ids', async () => {
    await page('problems', 'prb_a', 'alpha');
    await page('problems', 'prb_b', 'bravo');
    await page('problems', 'prb_c', 'charlie');
    await page('solutions', 'sol_a', 'delta');
    await page('discussions', 'dsc_a', 'echo');
    await buildBaseTier(dir, 1, 2);
    const first = (await readBaseInfo(dir))!;
    const firstIds = (await readBaseIds(dir)).ids;
    expect(await everyShard()).toEqual([
      { '/problems/prb_a': 'alpha.', '/problems/prb_b': 'bravo.' },
      { '/problems/prb_c': 'charlie.', '/solutions/sol_a': 'delta.' },
      { '/discussions/dsc_a': 'echo.' },
    ]);

    // A new problem sorts after every problem: it falls in the shard that ends them, which grows past two and is cut.
    await page('problems', 'prb_d', 'foxtrot');
    const built = await buildBaseTier(dir, 2, 2, ['/problems/prb_d']);
    expect(built).toMatchObject({ pages: 6, shards: 4, kept: 2, indexed: 3 });
    const second = (await readBaseInfo(dir))!;
    expect(second.coversRun).toBe(2);
    expect(second.shards[0]).toBe(first.shards[0]);
    expect(second.shards[3]).toBe(first.shards[2]);
    expect(second.shards[1]).toMatch(new RegExp(`^/pagefind/base-${second.base}/`));
    expect(await everyShard()).toEqual([
      { '/problems/prb_a': 'alpha.', '/problems/prb_b': 'bravo.' },
      { '/problems/prb_c': 'charlie.', '/problems/prb_d': 'foxtrot.' },
      { '/solutions/sol_a': 'delta.' },
      { '/discussions/dsc_a': 'echo.' },
    ]);
    const secondIds = (await readBaseIds(dir)).ids;
    expect([...secondIds.keys()].sort()).toEqual([
      '/discussions/dsc_a',
      '/problems/prb_a',
      '/problems/prb_b',
      '/problems/prb_c',
      '/problems/prb_d',
      '/solutions/sol_a',
    ]);
    for (const url of ['/problems/prb_a', '/problems/prb_b', '/discussions/dsc_a'])
      expect(secondIds.get(url)).toBe(firstIds.get(url));

    // An edit and a removal: their shards are built from the pages now on disk; a shard left empty is dropped.
    await page('problems', 'prb_a', 'golf');
    await unlink(path.join(dir, 'discussions', 'dsc_a.html'));
    expect(await buildBaseTier(dir, 3, 2, ['/problems/prb_a', '/discussions/dsc_a'])).toMatchObject({
      pages: 5,
      shards: 3,
      kept: 2,
      indexed: 2,
    });
    const third = (await readBaseInfo(dir))!;
    expect(third.shards.slice(1)).toEqual(second.shards.slice(1, 3));
    expect(await everyShard()).toEqual([
      { '/problems/prb_a': 'golf.', '/problems/prb_b': 'bravo.' },
      { '/problems/prb_c': 'charlie.', '/problems/prb_d': 'foxtrot.' },
      { '/solutions/sol_a': 'delta.' },
    ]);
    // A page added beside no note (its note not yet taken) still changes its shard's count: that shard is built too.
    await page('solutions', 'sol_b', 'hotel');
    expect(await buildBaseTier(dir, 4, 2, [])).toMatchObject({ pages: 6, kept: 2, indexed: 2 });
    expect((await everyShard()).at(-1)).toEqual({ '/solutions/sol_a': 'delta.', '/solutions/sol_b': 'hotel.' });

    // Nothing changed: every shard kept, and no folder of its own for the new base.
    const fourth = (await readBaseInfo(dir))!;
    expect(await buildBaseTier(dir, 5, 2, [])).toMatchObject({ pages: 6, shards: 3, kept: 3, indexed: 0 });
    const fifth = (await readBaseInfo(dir))!;
    expect(fifth.shards).toEqual(fourth.shards);
    expect(fifth.base).not.toBe(fourth.base);
    expect((await readBaseIds(dir)).base).toBe(fifth.base);

    // A full build (null) builds every shard again.
    expect(await buildBaseTier(dir, 6, 2, null)).toMatchObject({ pages: 6, shards: 3, kept: 0, indexed: 6 });
  });

  it('ends a shard where a type ends once it must be cut, so new records of the first type never push out the next', async () => {
    await page('problems', 'prb_a', 'alpha');
    for (const id of ['sol_a', 'sol_b', 'sol_c']) await page('solutions', id, id);
    await buildBaseTier(dir, 1, 3);
    // [prb_a sol_a sol_b] [sol_c]: the first shard ends the problems and starts the solutions.
    const counts: number[] = [];
    for (const [n, id] of ['prb_d', 'prb_e', 'prb_f', 'prb_g'].entries()) {
      await page('problems', id, id);
      const built = await buildBaseTier(dir, 2 + n, 3, [`/problems/${id}`]);
      counts.push(built.shards);
    }
    // Cut by its first three pages alone, each new problem would push one more solution out into a shard of its own.
    expect((await everyShard()).map((shard) => Object.keys(shard).sort())).toEqual([
      ['/problems/prb_a', '/problems/prb_d', '/problems/prb_e'],
      ['/problems/prb_f', '/problems/prb_g'],
      ['/solutions/sol_a', '/solutions/sol_b'],
      ['/solutions/sol_c'],
    ]);
    expect(counts).toEqual([3, 3, 4, 4]);
  });

  it('keeps the first shard holding pages that sort before it, and no id of a page that is gone', async () => {
    await page('problems', 'prb_m', 'mike');
    await page('problems', 'prb_n', 'november');
    await page('solutions', 'sol_a', 'alpha');
    await buildBaseTier(dir, 1, 2);
    // Pages before every range's first key fall in the first range, which grows past two and is cut.
    await page('problems', 'prb_a', 'alpha');
    await page('problems', 'prb_b', 'bravo');
    await buildBaseTier(dir, 2, 2, ['/problems/prb_a', '/problems/prb_b']);
    const info = (await readBaseInfo(dir))!;
    const firsts = info.ranges!.map((r) => r.first);
    expect(firsts).toEqual([...new Set(firsts)].sort());
    await unlink(path.join(dir, 'problems', 'prb_m.html'));
    await buildBaseTier(dir, 3, 2, ['/problems/prb_m']);
    const { ids } = await readBaseIds(dir);
    expect([...ids.keys()].sort()).toEqual([
      '/problems/prb_a',
      '/problems/prb_b',
      '/problems/prb_n',
      '/solutions/sol_a',
    ]);
    const held = (await everyShard()).flatMap((shard) => Object.keys(shard));
    expect(held.sort()).toEqual([...ids.keys()].sort());
  });

  it('builds every shard when the ids on disk belong to another base, or the base was built by another Pagefind', async () => {
    await page('problems', 'prb_a', 'alpha');
    await page('solutions', 'sol_a', 'bravo');
    await buildBaseTier(dir, 1, 1);
    // A build that died after writing its ids but before its info: the ids are not the published base's.
    const idsFile = path.join(dir, '.pagefind-base-ids.json');
    const written = JSON.parse(await readFile(idsFile, 'utf8'));
    await writeFile(idsFile, JSON.stringify({ ...written, base: 'another' }));
    await page('solutions', 'sol_b', 'charlie');
    expect(await buildBaseTier(dir, 2, 1, ['/solutions/sol_b'])).toMatchObject({ kept: 0, indexed: 3 });
    expect(await buildBaseTier(dir, 3, 1, [])).toMatchObject({ kept: 3, indexed: 0 });
    const infoFile = path.join(dir, '.pagefind-base.json');
    await writeFile(
      infoFile,
      JSON.stringify({ ...JSON.parse(await readFile(infoFile, 'utf8')), indexer: 'pagefind 0.0.1' }),
    );
    expect(await buildBaseTier(dir, 4, 1, [])).toMatchObject({ kept: 0, indexed: 3 });
  });

  it('deletes the shards neither the new base nor the previous one names, and base folders left empty', async () => {
    await page('problems', 'prb_a', 'alpha');
    await page('problems', 'prb_b', 'bravo');
    await page('solutions', 'sol_a', 'charlie');
    const publicDir = path.join(dir, 'pagefind');
    const onDisk = async () => {
      const shards: string[] = [];
      for (const folder of (await readdir(publicDir)).filter((n) => n.startsWith('base-')))
        for (const shard of await readdir(path.join(publicDir, folder))) shards.push(`/pagefind/${folder}/${shard}/`);
      return shards.sort();
    };
    await buildBaseTier(dir, 1, 2);
    const first = (await readBaseInfo(dir))!.shards;
    await page('solutions', 'sol_b', 'delta');
    await buildBaseTier(dir, 2, 2, ['/solutions/sol_b']);
    const second = (await readBaseInfo(dir))!.shards;
    expect(second[0]).toBe(first[0]);
    // The previous base's second shard stays while searches under way may read it.
    expect(await onDisk()).toEqual([...new Set([...first, ...second])].sort());
    await page('solutions', 'sol_b', 'echo');
    await buildBaseTier(dir, 3, 2, ['/solutions/sol_b']);
    const third = (await readBaseInfo(dir))!.shards;
    expect(third[0]).toBe(first[0]);
    expect(await onDisk()).toEqual([...new Set([...second, ...third])].sort());
    expect(await onDisk()).not.toContain(first[1]);
  });

  it('keeps the shards the published tiers.json names, though two bases were built since', async () => {
    await page('problems', 'prb_a', 'alpha');
    await buildBaseTier(dir, 1, 2);
    const first = (await readBaseInfo(dir))!.shards;
    // No index run took the next bases in: browsers still search the first.
    await writeFile(path.join(dir, 'pagefind', 'tiers.json'), JSON.stringify({ base_pages: 1, base_shards: first }));
    await buildBaseTier(dir, 2, 2);
    await buildBaseTier(dir, 3, 2);
    await expect(readFile(path.join(dir, first[0]!.slice(1), 'pagefind-entry.json'))).resolves.toBeTruthy();
    await writeFile(path.join(dir, 'pagefind', 'tiers.json'), JSON.stringify({ base_pages: 1, base_shards: [] }));
    await buildBaseTier(dir, 4, 2);
    await expect(readFile(path.join(dir, first[0]!.slice(1), 'pagefind-entry.json'))).rejects.toThrow();
  });

  it('reads a manifest from before shards as a base at /pagefind/, and opens the recent tier on its own', () => {
    expect(indexGroups({ base_pages: 3, recent: true, superseded: [] })).toEqual([
      { primary: '/pagefind/', merged: [] },
      { primary: '/pagefind/recent/', merged: [] },
    ]);
    expect(
      indexGroups({
        base_pages: 3,
        base_shards: ['/pagefind/base-x/0/', '/pagefind/base-x/1/'],
        recent: false,
        superseded: [],
      }),
    ).toEqual([{ primary: '/pagefind/base-x/0/', merged: ['/pagefind/base-x/1/'] }]);
    expect(indexGroups({ base_pages: 0, base_shards: [], recent: true, superseded: [] })).toEqual([
      { primary: '/pagefind/recent/', merged: [] },
    ]);
  });
});
