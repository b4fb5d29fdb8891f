import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../core/ids.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { admit, errorOf, eventually, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let author: Agent;
let reporters: Agent[];
const ids: Record<string, string> = {};

const PG_LITERAL =
  'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)';
const MODULE_LITERAL =
  "Error: Cannot find module '/home/runner/work/api/dist/index.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)";
const WATCH_LITERAL = "Error: ENOSPC: System limit for number of file watchers reached, watch '/home/dev/app/src'";

/** Uncompressed, so lengths and ETags are of the bytes read (test/api/compression.test.ts covers encodings). */
const get = (path: string, init: RequestInit = {}) =>
  fetch(stack.base + path, {
    ...init,
    headers: { 'accept-encoding': 'identity', ...(init.headers as Record<string, string>) },
  });

/** Search follows the commits in batches: each question is asked once it has caught up. */
async function search(params: Record<string, string>, endpoint = '/api/search') {
  await searchDocumentsCaughtUp(stack.pool);
  const res = await get(`${endpoint}?${new URLSearchParams(params)}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const idsOf = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await send(stack.base, author, 'POST', path, body);
  if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.resource.id;
}

async function report(agent: Agent, solutionId: string, signal: string): Promise<void> {
  const res = await send(stack.base, agent, 'POST', `/api/solutions/${solutionId}/outcomes`, { signal });
  if (res.status !== 201) throw new Error(`outcome answered ${res.status}`);
}

/** Discussions have no write API yet: inserted as the worker would commit them. */
async function insertDiscussion(
  key: string,
  over: { title: string; body: string; product?: string; status?: string; at: string },
) {
  const id = newId('discussion');
  await stack.pool.query(
    `INSERT INTO discussions (id, author_id, title, body, product, status, created_at, updated_at)
     VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::timestamptz, $7::timestamptz)`,
    [id, author.id, over.title, over.body, over.product ?? null, over.status ?? 'open', over.at],
  );
  ids[key] = id;
}

beforeAll(async () => {
  stack = await startStack();
  author = await admit(stack.base);
  reporters = await Promise.all([admit(stack.base), admit(stack.base), admit(stack.base)]);
  ids.pg = await create('/api/problems', {
    title: 'ECONNREFUSED to Postgres when the app starts',
    body: 'The API starts before the database accepts connections.',
    product: 'node-postgres',
    error_literal: PG_LITERAL,
    tags: ['docker'],
  });
  ids.pgWait = await create('/api/solutions', {
    problem_id: ids.pg,
    body: 'Wait for pg_isready in a compose healthcheck.',
  });
  ids.pgRetry = await create('/api/solutions', { problem_id: ids.pg, body: 'Retry pool.connect with backoff.' });
  ids.module = await create('/api/problems', {
    title: 'Cannot find module after the TypeScript build',
    body: 'The start script points at the wrong output folder.',
    product: 'node',
    error_literal: MODULE_LITERAL,
  });
  ids.watch = await create('/api/problems', {
    title: 'File watcher limit reached in a monorepo',
    body: 'The dev server of a large monorepo stops watching.',
    product: 'webpack',
    error_literal: WATCH_LITERAL,
  });
  ids.animals = await create('/api/problems', {
    title: 'Zebrafish quokka pipeline stalls',
    body: 'Nothing else to say here.',
    product: 'zoo',
  });
  // worked twice by the same identity (counts once), partially by another; the retry did not work.
  await report(reporters[0]!, ids.pgWait, 'did_not_work');
  await report(reporters[0]!, ids.pgWait, 'worked');
  await report(reporters[0]!, ids.pgWait, 'worked');
  await report(reporters[1]!, ids.pgWait, 'partially_worked');
  await report(reporters[2]!, ids.pgRetry, 'did_not_work');
  await stack.pool.query(`UPDATE problems SET status = 'archived' WHERE id = $1::text`, [ids.watch]);
  await insertDiscussion('compose', {
    title: 'Waiting for Postgres in docker compose',
    body: 'Healthchecks, wait-for-it or retries in the app?',
    product: 'docker',
    at: '2030-01-01T00:00:00Z',
  });
  await insertDiscussion('oldTalk', {
    title: 'Archived talk about ENOSPC watchers',
    body: 'Moved to the problem page.',
    status: 'archived',
    at: '2030-01-02T00:00:00Z',
  });
});
afterAll(() => stack.close());

describe('search parameters', () => {
  const endpoints = ['/api/v1/search', '/api/search'];
  const ok: Array<[string, Record<string, string>]> = [
    ['q of 300 characters', { q: 'x'.repeat(300) }],
    ['limit 1', { limit: '1' }],
    ['limit 20', { limit: '20' }],
    ['page 1', { page: '1' }],
    ['page 100', { page: '100' }],
    ['product of 1 character', { product: 'p' }],
    ['product of 120 characters', { product: 'p'.repeat(120) }],
    ['every mode', { mode: 'substring' }],
    [
      'every filter together',
      { type: 'problem', status: 'open', signal: 'worked', product: 'node-postgres', mode: 'keywords' },
    ],
  ];
  const bad: Array<[string, Record<string, string>, string]> = [
    ['q of 301 characters', { q: 'x'.repeat(301) }, 'q'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit 21', { limit: '21' }, 'limit'],
    ['limit that is not a whole number', { limit: '2.5' }, 'limit'],
    ['empty limit', { limit: '' }, 'limit'],
    ['page 0', { page: '0' }, 'page'],
    ['page 101', { page: '101' }, 'page'],
    ['page that is not a number', { page: 'two' }, 'page'],
    ['product of 0 characters', { product: '' }, 'product'],
    ['product of 121 characters', { product: 'p'.repeat(121) }, 'product'],
    ['product with a NUL', { product: 'a\u0000b' }, 'product'],
    ['unknown mode', { mode: 'fuzzy' }, 'mode'],
    ['unknown type', { type: 'reply' }, 'type'],
    ['unknown status', { status: 'closed' }, 'status'],
    ['unknown signal', { signal: 'great' }, 'signal'],
  ];

  describe.each(endpoints)('%s', (endpoint) => {
    it.each(ok)('accepts %s', async (_name, params) => {
      const res = await search(params, endpoint);
      expect(res.status).toBe(200);
    });

    it.each(bad)('answers %s with 400 naming the field', async (_name, params, field) => {
      const res = await search(params, endpoint);
      expect(res.status).toBe(400);
      expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', status: 400, field });
      expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    });
  });

  it('defaults to limit 7, page 1 and mode auto, and ignores unknown parameters', async () => {
    const res = await search({ q: 'ECONNREFUSED', utm_source: 'x' }, '/api/v1/search');
    expect(res.body).toMatchObject({ page: 1, limit: 7, mode: 'auto' });
  });

  it('answers odd input with 200, never 500', async () => {
    for (const q of [
      '%ZZ',
      '😀'.repeat(150),
      "'; DROP TABLE problems; --",
      '.*+?^${}()|[]\\',
      '<path>',
      '""""',
      '& | ! <->',
    ]) {
      const res = await get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    // Malformed escapes and a lone surrogate (%ED%A0%80) arrive undecoded or replaced, never as an error.
    const raw = await get('/api/search?q=%ZZ%E0%A4%A%ED%A0%80&product=%FF');
    expect(raw.status).toBe(200);
  });

  it('answers a NUL in the query with 400, as every route does', async () => {
    const res = await get(`/api/search?q=${encodeURIComponent('a\u0000b')}`);
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', reason: 'nul_character', field: 'q' });
  });
});

describe('search results', () => {
  it('answers /api/v1/search with the compact first-stage shape', async () => {
    const res = await search({ q: PG_LITERAL }, '/api/v1/search');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(res.body).sort()).toEqual(['content_trust', 'has_more', 'items', 'limit', 'mode', 'page']);
    const item = res.body.items.find((i: { id: string }) => i.id === ids.pg);
    expect(item).toEqual({
      type: 'problem',
      id: ids.pg,
      title: 'ECONNREFUSED to Postgres when the app starts',
      snippet:
        'Error: connect ECONNREFUSED 127.0.0.1:5432 at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      product: 'node-postgres',
      status: 'open',
      match: { kind: 'exact', coverage: 1 },
      signals: { worked: 1, partially_worked: 1, did_not_work: 1 },
      trust: { disputed: false, basis: expect.stringMatching(/^Disputed when /) },
      links: { html: `/problems/${ids.pg}`, json: `/problems/${ids.pg}.json`, markdown: `/problems/${ids.pg}.md` },
    });
  });

  it('answers /api/search with coverage of the whole query', async () => {
    const res = await search({ q: PG_LITERAL });
    expect(Object.keys(res.body).sort()).toEqual([
      'content_trust',
      'coverage',
      'has_more',
      'items',
      'limit',
      'mode',
      'page',
    ]);
    expect(res.body.coverage).toEqual({
      total: 3,
      total_exact: true,
      by_type: { problem: 1, solution: 2, discussion: 0 },
      modes_tried: ['exact', 'substring'],
    });
  });

  it.each([
    [
      'another port and address family',
      'Error: connect ECONNREFUSED ::1:5433\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)',
      'pg',
    ],
    ['only the error line, another address', 'error: connect econnrefused 10.1.2.3:6432', 'pg'],
    ['a log prefix of its own', '2024-05-01T10:00:00Z [api] Error: connect ECONNREFUSED 127.0.0.1:5432', 'pg'],
    [
      'a Windows path and other line numbers',
      "Error: Cannot find module 'C:\\Users\\dev\\api\\dist\\index.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
      'module',
    ],
    [
      'curly quotes and another home directory',
      'Error: ENOSPC: System limit for number of file watchers reached, watch ‘/Users/kim/web/src’',
      'watch',
    ],
  ])('matches a variant literal exactly: %s', async (_name, q, key) => {
    const res = await search({ q, type: 'problem', status: key === 'watch' ? 'archived' : 'open' });
    expect(res.body.items[0]).toMatchObject({ id: ids[key], match: { kind: 'exact' } });
    // auto ranks exact and substring matches together (docs/search.md).
    expect(res.body.coverage.modes_tried).toEqual(['exact', 'substring']);
  });

  it('reports the share of the query a prefixed or extended paste covers', async () => {
    const res = await search({
      q: '[api] Error: connect ECONNREFUSED 127.0.0.1:5432 while warming the pool',
      type: 'problem',
    });
    expect(res.body.items[0]).toMatchObject({ id: ids.pg, match: { kind: 'exact' } });
    expect(res.body.items[0].match.coverage).toBeGreaterThan(0.3);
    expect(res.body.items[0].match.coverage).toBeLessThan(1);
  });

  it('falls back to a substring match for a truncated literal', async () => {
    const res = await search({ q: 'System limit for number of file watch' });
    expect(res.body.coverage.modes_tried).toEqual(['exact', 'substring']);
    expect(idsOf(res.body)).toEqual([ids.watch]);
    expect(res.body.items[0].match).toEqual({ kind: 'substring', coverage: 1 });
  });

  it('falls back to keywords for a paraphrase, with the share of terms each candidate covers', async () => {
    const res = await search({ q: 'zebrafish quokka narwhal axolotl' });
    expect(res.body.coverage.modes_tried).toEqual(['exact', 'substring', 'keywords']);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ id: ids.animals, match: { kind: 'keywords', coverage: 0.5 } });
  });

  it("matches by keywords a record holding fewer than half of a short query's terms only as a last guess", async () => {
    // One term of three (zebrafish): no record holds two, so the records holding one are the answer.
    const res = await search({ q: 'zebrafish narwhal axolotl', mode: 'keywords' });
    expect(idsOf(res.body)).toEqual([ids.animals]);
    expect(res.body.items[0].match).toEqual({ kind: 'keywords', coverage: 0.333 });
  });

  it("reads records holding a third of a long symptom's terms when half of them finds fewer than a page", async () => {
    // Six terms: half is three, and the record holds two (zebrafish, quokka).
    const res = await search({ q: 'zebrafish quokka narwhal axolotl manatee okapi' });
    expect(idsOf(res.body)).toEqual([ids.animals]);
    expect(res.body.items[0].match).toEqual({ kind: 'keywords', coverage: 0.333 });
  });

  it('answers with the records holding one of its terms when no record holds two of them', async () => {
    // Six terms, the record holds one (zebrafish): a ranked guess by that term rather than an empty page.
    const res = await search({ q: 'zebrafish narwhal axolotl manatee okapi dugong' });
    expect(idsOf(res.body)).toEqual([ids.animals]);
    expect(res.body.items[0].match).toEqual({ kind: 'keywords', coverage: 0.167 });
    expect((await search({ q: 'narwhal axolotl manatee okapi dugong' })).body.coverage.total).toBe(0);
  });

  it('finds the record sharing two terms of a pasted trace that no record holds half of, rather than nothing', async () => {
    // Nine terms, the record holds two (zebrafish, quokka): below half, and pasted text has no third-of-terms level.
    const res = await search({ q: '$ deploy --verbose\nfatal: zebrafish quokka narwhal axolotl manatee okapi dugong' });
    expect(res.body.coverage.modes_tried).toEqual(['exact', 'substring', 'keywords']);
    expect(idsOf(res.body)).toEqual([ids.animals]);
    expect(res.body.items[0].match).toEqual({ kind: 'keywords', coverage: 0.222 });
  });

  it('ranks a symptom in words that meets a record only on a fragment with its keyword matches', async () => {
    // "waiting for postgres in docker compose" is the discussion's whole title, a fragment of the query.
    const res = await search({ q: 'waiting for postgres in docker compose before the app starts' });
    expect(res.body.coverage.modes_tried).toEqual(['exact', 'substring', 'keywords']);
    expect(idsOf(res.body)).toEqual(expect.arrayContaining([ids.compose, ids.pg]));
  });

  it('ranks keyword candidates by the terms they hold, their title counting extra', async () => {
    const res = await search({ q: 'postgres database connections refused docker compose', mode: 'keywords' });
    const coverages = res.body.items.map((i: { match: { coverage: number } }) => i.match.coverage);
    expect(coverages.length).toBeGreaterThan(2);
    // Fewer than a page hold half of the six terms, so records holding a third of them follow (keyword-query.ts).
    for (const coverage of coverages) expect(coverage).toBeGreaterThanOrEqual(0.33);
    expect(coverages[0]).toBeGreaterThanOrEqual(0.5);
    // The first is about the query: its title holds query terms.
    expect(res.body.items[0].title).toMatch(/postgres|database|connection|refused|docker|compose/i);
  });

  it('answers mode=exact with nothing when only keywords would match', async () => {
    const res = await search({ q: 'zebrafish quokka narwhal axolotl', mode: 'exact' });
    expect(res.body).toMatchObject({ items: [], has_more: false, mode: 'exact' });
    expect(res.body.coverage).toMatchObject({ total: 0, modes_tried: ['exact'] });
  });

  it('reports the strongest kind each candidate satisfies and ranks stronger kinds first', async () => {
    const res = await search({
      q: 'Error: connect ECONNREFUSED 127.0.0.1:5432 from docker compose',
      mode: 'keywords',
      limit: '20',
    });
    expect(res.body.mode).toBe('keywords');
    expect(res.body.coverage.modes_tried).toEqual(['keywords']);
    const kinds = res.body.items.map((i: { match: { kind: string } }) => i.match.kind);
    expect(kinds.slice(0, 3)).toEqual(['exact', 'exact', 'exact']);
    expect(kinds).toContain('keywords');
    expect(kinds.indexOf('keywords')).toBeGreaterThan(kinds.lastIndexOf('exact'));
  });

  it('ranks equal matches by outcome signals: worked before partially before did not work', async () => {
    const res = await search({ q: PG_LITERAL });
    // pgWait: worked 1 + partially 1; the problem sums its solutions (1, 1, 1); pgRetry: did not work 1.
    expect(idsOf(res.body)).toEqual([ids.pgWait, ids.pg, ids.pgRetry]);
    expect(res.body.items[0].signals).toEqual({ worked: 1, partially_worked: 1, did_not_work: 0 });
    expect(res.body.items[2].signals).toEqual({ worked: 0, partially_worked: 0, did_not_work: 1 });
  });

  it('finds solutions by their own text and by their problem title', async () => {
    expect(idsOf((await search({ q: 'pg_isready in a compose healthcheck' })).body)).toEqual([ids.pgWait]);
    const byTitle = await search({ q: 'ECONNREFUSED to Postgres when the app starts', type: 'solution' });
    expect(idsOf(byTitle.body).sort()).toEqual([ids.pgWait, ids.pgRetry].sort());
    expect(byTitle.body.items[0].match.kind).toBe('exact');
  });

  it('finds discussions by title and body', async () => {
    const res = await search({ q: 'wait-for-it or retries', type: 'discussion' });
    expect(res.body.items).toEqual([
      expect.objectContaining({
        type: 'discussion',
        id: ids.compose,
        title: 'Waiting for Postgres in docker compose',
        product: 'docker',
        status: 'open',
        links: {
          html: `/discussions/${ids.compose}`,
          json: `/discussions/${ids.compose}.json`,
          markdown: `/discussions/${ids.compose}.md`,
        },
      }),
    ]);
  });

  it('takes LIKE wildcards in the query literally', async () => {
    const res = await search({ q: '%%%', mode: 'substring' });
    expect(res.body.coverage.total).toBe(0);
  });
});

describe('search filters', () => {
  // Each filter is checked on a listing of everything (empty q) and on an exact match of the Postgres family.
  const queries: Array<[string, Record<string, string>, string[] | null]> = [
    ['all records', { limit: '20' }, null],
    ['a literal', { q: PG_LITERAL, limit: '20' }, ['pg', 'pgWait', 'pgRetry']],
  ];
  const expectIds = (body: { items: Array<{ id: string }> }, keys: string[], within: string[] | null) =>
    expect(idsOf(body).sort()).toEqual(
      keys
        .filter((k) => !within || within.includes(k))
        .map((k) => ids[k])
        .sort(),
    );

  describe.each(queries)('on %s', (_name, query, within) => {
    it.each([
      ['problem', ['pg', 'module', 'watch', 'animals']],
      ['solution', ['pgWait', 'pgRetry']],
      ['discussion', ['compose', 'oldTalk']],
    ])('keeps only type %s', async (type, keys) => {
      const res = await search({ ...query, type });
      expectIds(res.body, keys, within);
      expect(Object.entries(res.body.coverage.by_type).filter(([t, n]) => t !== type && n !== 0)).toEqual([]);
    });

    it('keeps only the requested product, ignoring case', async () => {
      expectIds((await search({ ...query, product: 'Node-Postgres' })).body, ['pg', 'pgWait', 'pgRetry'], within);
      expectIds((await search({ ...query, product: 'DOCKER' })).body, ['compose'], within);
    });

    it.each([
      ['archived', ['watch', 'oldTalk']],
      ['active', ['pgWait', 'pgRetry']],
      ['open', ['pg', 'module', 'animals', 'compose']],
    ])('keeps only status %s', async (status, keys) => {
      expectIds((await search({ ...query, status })).body, keys, within);
    });

    it.each([
      ['worked', ['pg', 'pgWait']],
      ['partially_worked', ['pg', 'pgWait']],
      ['did_not_work', ['pg', 'pgRetry']],
    ])('keeps only records with a %s report (a problem: on any of its solutions)', async (signal, keys) => {
      expectIds((await search({ ...query, signal })).body, keys, within);
    });
  });

  it('counts a signal once per identity, by its latest report', async () => {
    const res = await search({ q: 'pg_isready in a compose healthcheck' });
    // reporters[0] said did_not_work, then worked twice: one worked.
    expect(res.body.items[0].signals).toEqual({ worked: 1, partially_worked: 1, did_not_work: 0 });
  });
});

describe('search pages', () => {
  it('pages through the candidates and says when more follow', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await search({ q: PG_LITERAL, limit: '1', page: String(page) });
      expect(res.body).toMatchObject({ page, limit: 1, has_more: page < 3 });
      seen.push(...idsOf(res.body));
    }
    expect(seen).toEqual([ids.pgWait, ids.pg, ids.pgRetry]);
    const past = await search({ q: PG_LITERAL, limit: '1', page: '4' });
    expect(past.body).toMatchObject({ items: [], has_more: false });
    expect(past.body.coverage).toMatchObject({ total: 3, modes_tried: ['exact', 'substring'] });
  });

  it('lists the newest records passing the filters when q is empty or omitted', async () => {
    for (const params of [{}, { q: '' }, { q: '  "" ' }] as Array<Record<string, string>>) {
      const res = await search(params);
      expect(idsOf(res.body).slice(0, 2)).toEqual([ids.oldTalk, ids.compose]);
      expect(res.body.items[0].match).toEqual({ kind: 'keywords', coverage: 0 });
      expect(res.body.coverage).toMatchObject({
        total: 8,
        by_type: { problem: 4, solution: 2, discussion: 2 },
        modes_tried: [],
      });
      expect(res.body.has_more).toBe(true);
    }
    const filtered = await search({ type: 'problem', status: 'open', product: 'NODE' });
    expect(idsOf(filtered.body)).toEqual([ids.module]);
  });
});

describe('search freshness', () => {
  it('finds a record written through the API once the worker has caught up, without anyone asking it to', async () => {
    const id = await create('/api/problems', {
      title: 'Kestrel worker exits with code 137',
      body: 'The container is killed under load.',
      product: 'kestrel-host',
      error_literal: 'Process kestrel-worker exited with code 137 (OOMKilled)',
    });
    // Not the helper above, which brings search up to date itself: the worker's catch-up must.
    const found = await eventually(async () => {
      const res = await get(
        `/api/search?${new URLSearchParams({ q: 'Process kestrel-worker exited with code 137 (OOMKilled)' })}`,
      );
      const body = await res.json();
      return body.items.some((item: { id: string }) => item.id === id) ? body : null;
    }, 5_000);
    expect(found.items[0]).toMatchObject({ id, match: { kind: 'exact' } });
  });

  it('finds a record once search has caught up with its write, and follows its edits', async () => {
    const id = await create('/api/problems', {
      title: 'Segfault in the image resizer',
      body: 'Crashes on large PNGs.',
      product: 'sharp',
      error_literal: 'Segmentation fault (core dumped) at 0x7ffd5c3e8a10',
    });
    const found = await search({ q: 'Segmentation fault (core dumped) at 0x0000556b2c1d' });
    expect(found.body.items[0]).toMatchObject({ id, match: { kind: 'exact' } });
    const edit = await send(stack.base, author, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'Resizer dies on huge PNG files',
    });
    expect(edit.status).toBe(201);
    const renamed = await search({ q: 'Resizer dies on huge PNG files' });
    expect(renamed.body.items[0]).toMatchObject({
      id,
      title: 'Resizer dies on huge PNG files',
      match: { kind: 'exact', coverage: 1 },
    });
  });
});

describe('search signature in the title', () => {
  it('counts a port the record names in its title as one it carries, not only one in its literal', async () => {
    const titled = await create('/api/problems', {
      title: 'Quetzal server cannot bind port 80',
      body: 'Another web server already listens there.',
      product: 'quetzal',
      error_literal: 'OSError: [Errno 98] Address already in use',
    });
    const other = await create('/api/problems', {
      title: 'Quetzal address already in use on port 80 at startup',
      body: 'Two proxies start together.',
      product: 'quetzal-proxy',
      error_literal: 'bind() to 0.0.0.0:80 failed (98: Address already in use)',
    });
    const res = await search({ q: 'quetzal server port 80 address already in use', mode: 'keywords' });
    expect(idsOf(res.body).slice(0, 2)).toEqual([titled, other]);
  });
});

describe('search term aliases', () => {
  it('matches a short name to the record spelling the long one, and counts the two spellings as one term', async () => {
    const pg = await create('/api/problems', {
      title: 'PostgreSQL wombat replica lags behind',
      body: 'The wombat replica of the PostgreSQL cluster falls behind.',
      product: 'wombatdb',
    });
    const k8s = await create('/api/problems', {
      title: 'Kubernetes wombat operator loops',
      body: 'The wombat operator reconciles the same object forever.',
      product: 'wombat-operator',
    });
    const byShortName = await search({ q: 'postgres wombat replica lags', mode: 'keywords' });
    expect(byShortName.body.items[0]).toMatchObject({ id: pg, match: { kind: 'keywords', coverage: 1 } });
    const byBoth = await search({ q: 'postgres postgresql wombat replica', mode: 'keywords' });
    expect(byBoth.body.items[0]).toMatchObject({ id: pg, match: { coverage: 1 } });
    const k8sShort = await search({ q: 'k8s wombat operator loops', mode: 'keywords' });
    expect(k8sShort.body.items[0]).toMatchObject({ id: k8s, match: { coverage: 1 } });
  });

  it('finds the record of an errno code by the words of its description, for a symptom in words', async () => {
    const eacces = await create('/api/problems', {
      title: 'Wallaby daemon stops at startup',
      body: 'It runs as another user than the one owning its folder.',
      product: 'wallabyd',
      error_literal: "Error: EACCES: open '/srv/wallaby/state.lock'",
    });
    const symptom = await search({ q: 'wallaby daemon permission denied', mode: 'keywords' });
    // wallaby, daemon and permission (as EACCES) of four terms; denied is nowhere.
    expect(symptom.body.items[0]).toMatchObject({ id: eacces, match: { kind: 'keywords', coverage: 0.75 } });
  });
});

describe('search as an HTTP read', () => {
  it.each(['/api/v1/search', '/api/search'])(
    '%s answers with a strong ETag, 304 on If-None-Match, and HEAD without a body',
    async (endpoint) => {
      const url = `${endpoint}?q=ECONNREFUSED`;
      const res = await get(url);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]{1,8}-[0-9a-f]+"$/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=10, stale-while-revalidate=60');
      const body = await res.arrayBuffer();

      const again = await get(url, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');

      const head = await get(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect(head.headers.get('content-length')).toBe(String(body.byteLength));
      expect(await head.text()).toBe('');
    },
  );

  it.each(['/api/v1/search', '/api/search'])(
    '%s answers OPTIONS with 204 and Allow, and other methods with 405',
    async (endpoint) => {
      const options = await get(endpoint, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      const post = await get(endpoint, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(post.status).toBe(405);
      expect(errorOf(await post.json()).code).toBe('unsupported_operation');
    },
  );

  it('answers 503 search_unavailable with Retry-After when the database cannot answer in time', async () => {
    // A writer holding the table stands in for an overloaded database: the search statement waits, then is cancelled.
    const blocker = await stack.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE search_documents IN ACCESS EXCLUSIVE MODE');
      const res = await get('/api/search?q=ECONNREFUSED');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(errorOf(await res.json())).toMatchObject({
        code: 'temporarily_unavailable',
        reason: 'search_unavailable',
        retryable: true,
      });
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect((await get('/api/search?q=ECONNREFUSED')).status).toBe(200);
  });

  it('is listed in the /api/v1 index', async () => {
    const index = await (await get('/api/v1')).json();
    expect(index.paths).toEqual(expect.arrayContaining(['GET /api/v1/search', 'GET /api/search']));
  });
});
