import { describe, expect, it } from 'vitest';
import { tieredIndex, type Pagefind, type TierManifest } from '../../site/lib/search/pagefind.ts';

interface Hit {
  id: string;
  score: number;
}

/** An instance answering `hits` once `ready` resolves (the real one is exercised in test/browser/search.test.ts). */
function instance(hits: Hit[], ready: Promise<void> = Promise.resolve()): Pagefind<Hit> {
  return {
    options: async () => undefined,
    mergeIndex: async () => undefined,
    init: async () => undefined,
    search: async () => {
      await ready;
      return { results: hits };
    },
  };
}

const manifest: TierManifest = {
  base_pages: 4,
  base_shards: ['/pagefind/base-a/0/', '/pagefind/base-a/1/'],
  recent: true,
  superseded: ['old-b'],
};

describe('the tiers as one index', () => {
  it('ranks every tier by score, base before recent on ties, without superseded or repeated pages', async () => {
    const opened: [string, string[]][] = [];
    const index = tieredIndex<Hit>(manifest, async (primary, merged) => {
      opened.push([primary, merged]);
      return primary === '/pagefind/recent/'
        ? instance([
            { id: 'new-b', score: 5 },
            { id: 'tie-recent', score: 2 },
            { id: 'same', score: 1 },
          ])
        : instance([
            { id: 'old-b', score: 9 },
            { id: 'a', score: 3 },
            { id: 'tie-base', score: 2 },
            { id: 'same', score: 1 },
          ]);
    });
    expect(opened).toEqual([
      ['/pagefind/base-a/0/', ['/pagefind/base-a/1/']],
      ['/pagefind/recent/', []],
    ]);
    expect((await index.search('word')).map((r) => r.id)).toEqual(['new-b', 'a', 'tie-base', 'tie-recent', 'same']);
  });

  it('hands over the recent results while the base loads, and never after the answer', async () => {
    let baseReady!: () => void;
    const base = new Promise<void>((resolve) => (baseReady = resolve));
    const index = tieredIndex<Hit>(manifest, async (primary) =>
      primary === '/pagefind/recent/' ? instance([{ id: 'new-b', score: 1 }]) : instance([{ id: 'a', score: 2 }], base),
    );
    const early: string[][] = [];
    const answer = index.search('word', {}, (results) => early.push(results.map((r) => r.id)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(early).toEqual([['new-b']]);
    baseReady();
    expect((await answer).map((r) => r.id)).toEqual(['a', 'new-b']);

    // The base answering first: the recent tier's results come only with the answer.
    let recentReady!: () => void;
    const recent = new Promise<void>((resolve) => (recentReady = resolve));
    const late = tieredIndex<Hit>(manifest, async (primary) =>
      primary === '/pagefind/recent/'
        ? instance([{ id: 'new-b', score: 1 }], recent)
        : instance([{ id: 'a', score: 2 }]),
    );
    const none: unknown[] = [];
    const second = late.search('word', {}, (results) => none.push(results));
    await new Promise((resolve) => setTimeout(resolve, 10));
    recentReady();
    expect((await second).map((r) => r.id)).toEqual(['a', 'new-b']);
    expect(none).toEqual([]);
  });

  it('fails a search when a tier cannot load, and says nothing early after that', async () => {
    let recentReady!: () => void;
    const recent = new Promise<void>((resolve) => (recentReady = resolve));
    const index = tieredIndex<Hit>(manifest, async (primary) => {
      if (primary === '/pagefind/recent/') return instance([{ id: 'new-b', score: 1 }], recent);
      throw new Error('shard gone');
    });
    const early: unknown[] = [];
    await expect(index.search('word', {}, (results) => early.push(results))).rejects.toThrow('shard gone');
    recentReady();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(early).toEqual([]);
  });
});
