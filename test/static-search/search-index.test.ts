import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SEARCH_COMPACT_JOB,
  SEARCH_COMPACT_QUEUE,
  SEARCH_INDEX_JOB,
  SEARCH_INDEX_QUEUE,
} from '../../core/queue-contract.ts';
import { redisConnectionOptions } from '../../infra/redis.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import type { SearchIndexRun, TierManifest } from '../../static-search/tiers.ts';
import { searchCompactJobOptions, searchIndexJobOptions } from '../../worker/jobs/search-index.ts';
import type { BaseBuild } from '../../static-search/base-tier.ts';
import { notePendingRecords } from '../../static-search/tiers.ts';
import { admit, errorOf, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { searchPublished } from '../helpers/pagefind.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;
let queue: Queue;
let compactQueue: Queue;
let redis: Redis;

/**
 * Two pages a base shard: every base in this file is several shards, so each
 * behaviour below (superseded copies, a page found once, compactions under
 * way) is checked across shards merged in the search, as at a million pages.
 */
const SHARD_PAGES = 2;

beforeAll(async () => {
  stack = await startStack({ SEARCH_INDEX_DELAY_MS: '200', SEARCH_SHARD_PAGES: String(SHARD_PAGES) });
  queue = new Queue(SEARCH_INDEX_QUEUE, {
    connection: redisConnectionOptions(stack.config.REDIS_URL!),
    prefix: stack.config.QUEUE_PREFIX,
  });
  compactQueue = new Queue(SEARCH_COMPACT_QUEUE, {
    connection: redisConnectionOptions(stack.config.REDIS_URL!),
    prefix: stack.config.QUEUE_PREFIX,
  });
  redis = new Redis(stack.config.REDIS_URL!);
  agent = await admit(stack.base);
  await settled();
});
afterAll(async () => {
  redis?.disconnect();
  await queue?.close();
  await compactQueue?.close();
  await stack?.close();
});

const dir = () => stack.config.PROJECTIONS_DIR;
const exists = (file: string) =>
  readFile(path.join(dir(), file)).then(
    () => true,
    () => false,
  );
/** A word no other record contains (Pagefind indexes letters and digits as one word). */
const uniqueWord = (stem: string) =>
  `${stem}${randomBytes(4)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!)}`;

/** Every completed run (or compaction), read from the queue's event stream: written atomically with each completion. */
async function completedRuns(q: Queue = queue): Promise<SearchIndexRun[]> {
  const entries = await redis.xrange(q.keys.events!, '-', '+');
  return entries.flatMap(([, fields]) => {
    const event = Object.fromEntries(
      Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]),
    );
    return event.event === 'completed' ? [JSON.parse(event.returnvalue!) as SearchIndexRun] : [];
  });
}

/** Notes of rendered records that no index run has taken yet (tiers.ts). */
const pendingNotes = async () =>
  (await readdir(path.join(dir(), '.pagefind-pending')).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));

const idle = async (q: Queue) =>
  Object.values(await q.getJobCounts('waiting', 'delayed', 'active', 'prioritized')).every((n) => n === 0);

/**
 * Waits until nothing is waiting, delayed or running in the index queue, and
 * an index is published; for the worker's own queue, also until the
 * compaction queue is idle (a compaction asks for a run before it finishes,
 * a run for a compaction), every change is rendered and every render's note
 * taken. A pass writes its files, notes them, marks its changes rendered and
 * only then asks for a run: an empty queue alone can be the moment between a
 * page's file and its request. `compactions: false` leaves the compaction
 * queue out (a test holding it paused).
 */
async function settled(q: Queue = queue, { compactions = true } = {}): Promise<void> {
  await eventually(async () => {
    if (!(await idle(q))) return false;
    if (q !== queue) return true;
    if (compactions && !(await idle(compactQueue))) return false;
    return (
      (await countUnrenderedChanges(stack.pool)) === 0 &&
      (await pendingNotes()).length === 0 &&
      (await exists('pagefind/tiers.json')) &&
      (!compactions || (await baseTakenIn()))
    );
  }, 20_000);
}

const readJson = async (file: string) => JSON.parse(await readFile(path.join(dir(), file), 'utf8').catch(() => 'null'));

/**
 * The published manifest names the newest base's shards and no full rebuild waits for one. The two queues are read
 * one after the other, so a compaction that asks for its run and finishes between the two reads leaves both idle
 * for a moment, before that run has switched tiers.json to the new base.
 */
async function baseTakenIn(): Promise<boolean> {
  const [info, manifest, state] = await Promise.all([
    readJson('.pagefind-base.json'),
    readJson('pagefind/tiers.json'),
    readJson('.pagefind-tiers.json'),
  ]);
  return (
    info !== null &&
    state?.wantBaseRun == null &&
    JSON.stringify(manifest?.base_shards ?? null) === JSON.stringify(info.shards)
  );
}

async function createProblem(word: string): Promise<string> {
  const res = await send(
    stack.base,
    agent,
    'POST',
    '/api/problems',
    problemBody({ title: `Failure mentioning ${word}`, body: `The log says ${word} twice.` }),
  );
  expect(res.status).toBe(201);
  return res.body.resource.id;
}

describe('search index batching', () => {
  it('indexes a burst of writes in one run, and that run has the last write', async () => {
    await settled();
    await queue.pause();
    const before = (await completedRuns()).length;
    const words = Array.from({ length: 8 }, (_, i) => uniqueWord(`burst${'abcdefgh'[i]}`));
    const ids = await Promise.all(words.map(createProblem));
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    for (const id of ids) expect(await exists(`problems/${id}.html`)).toBe(true);

    // Eight writes, several render passes, each asking for a re-index: one job.
    const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1);

    await queue.resume();
    await settled();
    const runs = (await completedRuns()).slice(before);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.pages).toBeGreaterThanOrEqual(ids.length);
    for (const [i, word] of words.entries()) {
      expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${ids[i]}`]);
    }
  });

  it('never misses the last of writes that keep arriving while runs are under way', async () => {
    await settled();
    const words: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      words.push(uniqueWord(`stream${'abcdef'[i]}`));
      ids.push(await createProblem(words[i]!));
      await eventually(() => exists(`problems/${ids[i]}.html`));
    }
    await settled();
    expect(await searchPublished(stack.base, dir(), words.at(-1)!)).toEqual([`/problems/${ids.at(-1)}`]);
    for (const [i, word] of words.entries())
      expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${ids[i]}`]);
  });
});

/** Asks for a compaction (what a full rebuild notes) and waits for the new base. */
async function compact(): Promise<void> {
  await settled();
  await notePendingRecords(dir(), 'all');
  await queue.add(SEARCH_INDEX_JOB, {}, searchIndexJobOptions(0));
  await settled();
}

async function editProblem(id: string, revision: number, word: string): Promise<void> {
  const res = await send(stack.base, agent, 'PATCH', `/api/problems/${id}`, {
    base_revision: revision,
    title: `Failure mentioning ${word}`,
    body: `The log now says ${word}.`,
  });
  expect(res.status).toBe(201);
}

describe('two tiers', () => {
  it('indexes a write into the recent tier only: the run reads the pages written since the base, not every page', async () => {
    await compact();
    const base = JSON.parse(await readFile(path.join(dir(), '.pagefind-tiers.json'), 'utf8'));
    expect(base.recent).toEqual({});
    const before = (await completedRuns()).length;
    const word = uniqueWord('recenttier');
    const id = await createProblem(word);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await settled();
    const runs = (await completedRuns()).slice(before);
    expect(runs.at(-1)).toMatchObject({ tier: 'recent' });
    // The new problem and its author's page changed; only the problem has a page in the index.
    expect(runs.at(-1)!.pages).toBe(1);
    expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${id}`]);
    // Record ids stay out of the index: Pagefind splits them into short words
    // (…62re0432…: "re"), and a query a tier lacks falls back to its longest
    // prefix that is a word there, so the base would answer "recenttier…" with
    // whichever page's id holds "re".
    expect(await searchPublished(stack.base, dir(), id)).toEqual([]);
    expect(await searchPublished(stack.base, dir(), id.slice(4))).toEqual([]);
    const manifest = await (await fetch(`${stack.base}/pagefind/tiers.json`)).json();
    expect(manifest).toMatchObject({ recent: true });
  });

  it('finds an edited record by its new words and no longer by the old ones its base copy still holds', async () => {
    const [oldWord, newWord] = [uniqueWord('beforeedit'), uniqueWord('afteredit')];
    const id = await createProblem(oldWord);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await compact();
    expect(await searchPublished(stack.base, dir(), oldWord)).toEqual([`/problems/${id}`]);
    await editProblem(id, 1, newWord);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await settled();
    expect(await searchPublished(stack.base, dir(), newWord)).toEqual([`/problems/${id}`]);
    expect(await searchPublished(stack.base, dir(), oldWord)).toEqual([]);
    // A word both versions hold finds the record once.
    expect(await searchPublished(stack.base, dir(), 'mentioning')).toEqual(expect.arrayContaining([`/problems/${id}`]));
    const all = await searchPublished(stack.base, dir(), 'mentioning');
    expect(all.filter((url) => url === `/problems/${id}`)).toHaveLength(1);
  });

  it('compacts into a new base that holds every page, and empties the recent tier', async () => {
    const word = uniqueWord('compacted');
    const id = await createProblem(word);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await settled();
    const before = (await completedRuns(compactQueue)).length;
    await compact();
    expect((await completedRuns(compactQueue)).length).toBe(before + 1);
    expect(await (await fetch(`${stack.base}/pagefind/tiers.json`)).json()).toMatchObject({
      recent: false,
      superseded: [],
    });
    expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${id}`]);
  });

  it('goes on indexing writes into the recent tier while a compaction waits or runs, and the new base takes them over', async () => {
    await settled();
    // The compaction is held (as if it took minutes): index runs must not wait for it.
    await compactQueue.pause();
    try {
      await notePendingRecords(dir(), 'all');
      await queue.add(SEARCH_INDEX_JOB, {}, searchIndexJobOptions(0));
      await eventually(async () => (await compactQueue.getJobCounts('waiting')).waiting === 1);
      const word = uniqueWord('duringcompaction');
      const id = await createProblem(word);
      await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
      await settled(queue, { compactions: false });
      expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${id}`]);
      expect(await (await fetch(`${stack.base}/pagefind/tiers.json`)).json()).toMatchObject({ recent: true });
      const before = (await completedRuns(compactQueue)).length;
      await compactQueue.resume();
      await settled();
      expect((await completedRuns(compactQueue)).length).toBe(before + 1);
      // The new base read the page (its note was taken before the compaction started): the recent tier is empty again.
      expect(await (await fetch(`${stack.base}/pagefind/tiers.json`)).json()).toMatchObject({
        recent: false,
        superseded: [],
      });
      expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${id}`]);
    } finally {
      await compactQueue.resume();
    }
  });

  it('compacts after writes by building again only the shards they fall in; every page is still found once', async () => {
    // Enough pages for several shards, then a full base.
    for (let i = 0; i < 3; i++) await createProblem(uniqueWord('shardkeep'));
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await compact();
    const manifest = async (): Promise<TierManifest> => (await fetch(`${stack.base}/pagefind/tiers.json`)).json();
    const before = (await manifest()).base_shards;
    const everyProblem = (await searchPublished(stack.base, dir(), 'mentioning')).sort();
    const word = uniqueWord('shardtail');
    const id = await createProblem(word);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await settled();
    expect(await manifest()).toMatchObject({ recent: true });
    const compactions = (await completedRuns(compactQueue)).length;
    // What an index run asks for once the recent tier passes COMPACT_AT pages.
    await compactQueue.add(SEARCH_COMPACT_JOB, {}, searchCompactJobOptions());
    await settled();
    const [compaction] = (await completedRuns(compactQueue)).slice(compactions) as unknown as BaseBuild[];
    const after = await manifest();
    expect(after).toMatchObject({ recent: false, superseded: [] });
    // A new problem sorts after every other: only the shard that ends the problems is built again (cut in two if full).
    expect(compaction!.indexed).toBeLessThanOrEqual(2 * SHARD_PAGES);
    expect(compaction!.kept).toBe(before.length - 1);
    expect(after.base_shards.filter((shard) => before.includes(shard))).toHaveLength(before.length - 1);
    expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${id}`]);
    expect((await searchPublished(stack.base, dir(), 'mentioning')).sort()).toEqual(
      [...everyProblem, `/problems/${id}`].sort(),
    );
  });
});

describe('index request options (real BullMQ, a processor the test holds open)', () => {
  it('turn any number of requests during a run into exactly one more run, carrying the last request', async () => {
    const connection = redisConnectionOptions(stack.config.REDIS_URL!);
    const prefix = stack.config.QUEUE_PREFIX;
    const name = `semantics-${randomUUID()}`;
    const q = new Queue(name, { connection, prefix });
    const seen: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker(
      name,
      async (job) => {
        seen.push(job.data.n);
        if (seen.length === 1) await held;
        return {};
      },
      { connection, prefix },
    );
    try {
      const options = searchIndexJobOptions(100);
      for (let n = 0; n < 3; n++) await q.add('rebuild', { n }, options);
      await eventually(async () => (await q.getActiveCount()) === 1);
      for (let n = 3; n < 8; n++) await q.add('rebuild', { n }, options);
      // Nothing queued beside the active run: the requests wait inside BullMQ for it to finish.
      expect(await q.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 1 });
      release();
      await eventually(async () => seen.length === 2);
      await settled(q);
      expect(seen).toEqual([0, 7]);
      expect(await completedRuns(q)).toHaveLength(2);
    } finally {
      release();
      await worker.close();
      await q.obliterate({ force: true });
      await q.close();
    }
  });
});

describe('the published bundle', () => {
  async function publishedFiles(): Promise<string[]> {
    const root = path.join(dir(), 'pagefind');
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  }
  const manifest = async (): Promise<TierManifest> => (await fetch(`${stack.base}/pagefind/tiers.json`)).json();
  /** The base folders published (`base-<stamp>`), each holding its shards. */
  const baseFolders = async () =>
    (await readdir(path.join(dir(), 'pagefind'))).filter((name) => name.startsWith('base-')).sort();

  it('cuts the base into shards of at most SEARCH_SHARD_PAGES pages, each page in exactly one, and searches them all', async () => {
    const words = [uniqueWord('shardfirst'), uniqueWord('shardsecond'), uniqueWord('shardthird')];
    const shared = uniqueWord('shardshared');
    const ids: string[] = [];
    for (const word of words) {
      const res = await send(
        stack.base,
        agent,
        'POST',
        '/api/problems',
        problemBody({ title: `Failure mentioning ${word}`, body: `The log says ${shared} and ${word}.` }),
      );
      expect(res.status).toBe(201);
      ids.push(res.body.resource.id);
    }
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await compact();
    const { base_pages, base_shards } = await manifest();
    expect(base_shards.length).toBe(Math.ceil(base_pages / SHARD_PAGES));
    expect(base_shards.length).toBeGreaterThanOrEqual(3);
    // Each shard is a Pagefind bundle of its own, read back with Pagefind's own code: together they hold every page once.
    const pagesByShard = await Promise.all(
      base_shards.map(async (shard) => {
        const entry = JSON.parse(await readFile(path.join(dir(), shard.slice(1), 'pagefind-entry.json'), 'utf8'));
        return Object.values(entry.languages as Record<string, { page_count: number }>).reduce(
          (sum, language) => sum + language.page_count,
          0,
        );
      }),
    );
    expect(pagesByShard.every((n) => n >= 1 && n <= SHARD_PAGES)).toBe(true);
    expect(pagesByShard.reduce((a, b) => a + b, 0)).toBe(base_pages);
    for (const [i, word] of words.entries())
      expect(await searchPublished(stack.base, dir(), word)).toEqual([`/problems/${ids[i]}`]);
    // Three pages, in at least two shards (two pages a shard): each found, once.
    expect((await searchPublished(stack.base, dir(), shared)).sort()).toEqual(
      ids.map((id) => `/problems/${id}`).sort(),
    );
  });

  it('finds an edited record once, by its new words, when its base copy is in another shard than the first', async () => {
    // Many pages before it: its base copy is in a later shard, merged into the first.
    const [oldWord, newWord] = [uniqueWord('lateshardold'), uniqueWord('lateshardnew')];
    const id = await createProblem(oldWord);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await compact();
    const { base_shards } = await manifest();
    const ids: Record<string, string> = JSON.parse(
      await readFile(path.join(dir(), '.pagefind-base-ids.json'), 'utf8'),
    ).ids;
    const shardOf = async (url: string) => {
      for (const [n, shard] of base_shards.entries()) {
        const fragment = path.join(dir(), shard.slice(1), 'fragment', `${ids[url]}.pf_fragment`);
        if (
          await readFile(fragment).then(
            () => true,
            () => false,
          )
        )
          return n;
      }
      return -1;
    };
    expect(await shardOf(`/problems/${id}`)).toBeGreaterThan(0);
    await editProblem(id, 1, newWord);
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await settled();
    expect((await manifest()).superseded).toContain(ids[`/problems/${id}`]);
    expect(await searchPublished(stack.base, dir(), newWord)).toEqual([`/problems/${id}`]);
    expect(await searchPublished(stack.base, dir(), oldWord)).toEqual([]);
    const all = await searchPublished(stack.base, dir(), 'mentioning');
    expect(all.filter((url) => url === `/problems/${id}`)).toHaveLength(1);
  });

  it('publishes each base whole in a folder of its own and keeps only the previous one, with none of the prebuilt UIs', async () => {
    await createProblem(uniqueWord('generation'));
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
    await compact();
    const first = (await manifest()).base_shards;
    await compact();
    const second = (await manifest()).base_shards;
    await compact();
    const third = (await manifest()).base_shards;
    const folderOf = (shards: string[]) => shards[0]!.split('/')[2]!;
    expect(new Set([folderOf(first), folderOf(second), folderOf(third)]).size).toBe(3);
    // Every shard of a base in that base's folder: tiers.json switches all of them at once.
    for (const shards of [second, third])
      expect(shards.every((s) => s.startsWith(`/pagefind/${folderOf(shards)}/`))).toBe(true);
    // The current base and the one before it (searches under way may still read it); older ones are deleted.
    expect(await baseFolders()).toEqual([folderOf(second), folderOf(third)].sort());
    const files = await publishedFiles();
    expect(files.some((f) => /pagefind-(ui|modular-ui|component-ui|highlight)\./.test(f))).toBe(false);
    // Nothing of a base lies outside its folder: beside them only the recent tier and the manifest.
    expect(files.filter((f) => !f.startsWith('base-') && !f.startsWith('recent/') && f !== 'tiers.json')).toEqual([]);
  });

  it.each([
    ['pagefind.js', 'text/javascript; charset=utf-8', /max-age=30/],
    ['pagefind-worker.js', 'text/javascript; charset=utf-8', /max-age=30/],
    ['pagefind-entry.json', 'application/json', /^no-cache$/],
    ['wasm.en.pagefind', 'application/octet-stream', /max-age=30/],
  ])("serves a shard's %s with its media type, cache policy, ETag, 304 and HEAD", async (name, type, cache) => {
    await expectServed(`${(await manifest()).base_shards.at(-1)!.slice('/pagefind/'.length)}${name}`, type, cache);
  });

  it('serves tiers.json with its media type, no-cache, ETag, 304 and HEAD', async () => {
    await expectServed('tiers.json', 'application/json', /^no-cache$/);
  });

  it("sends every shard's Pagefind worker script its own policy", async () => {
    for (const shard of (await manifest()).base_shards) {
      const res = await fetch(`${stack.base}${shard}pagefind-worker.js`);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    }
  });

  async function expectServed(file: string, type: string, cache: RegExp): Promise<void> {
    const res = await fetch(`${stack.base}/pagefind/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toMatch(cache);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(await readFile(path.join(dir(), 'pagefind', file)))).toBe(true);
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${stack.base}/pagefind/${file}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Lengths of the bytes read: uncompressed (test/api/compression.test.ts covers encodings).
    const head = await fetch(`${stack.base}/pagefind/${file}`, {
      method: 'HEAD',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(head.headers.get('content-length')).toBe(String(body.length));
  }

  it('serves content-named chunks as immutable', async () => {
    const meta = (await publishedFiles()).find((f) => f.endsWith('.pf_meta'))!;
    const res = await fetch(`${stack.base}/pagefind/${meta}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it.each([
    ['/pagefind/nothing.js'],
    ['/pagefind/../.pagefind-tiers.json'],
    ['/pagefind/%2e%2e/.pagefind-tiers.json'],
    ['/pagefind/pagefind-ui.js'],
  ])('answers %s with 404 not_found', async (p) => {
    const res = await fetch(stack.base + p);
    expect(res.status).toBe(404);
    expect(errorOf(await res.json()).code).toBe('not_found');
  });

  it('answers OPTIONS with 204 and 405 to writes', async () => {
    const script = `${stack.base}${(await manifest()).base_shards[0]}pagefind.js`;
    const options = await fetch(script, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(script, { method: 'POST' })).status).toBe(405);
  });
});
