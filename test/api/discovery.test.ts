import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { resetSitemaps, updateSitemaps } from '../../worker/sitemap/sitemaps.ts';
import { admit, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;
const problems: string[] = [];

const get = (p: string, init: RequestInit = {}) => fetch(stack.base + p, init);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
  for (let i = 0; i < 3; i++) {
    problems.push(
      (await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: `Discoverable problem ${i}` }))).body
        .resource.id,
    );
  }
  await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
  await eventually(async () => (await get('/sitemap.xml').then((r) => r.text())).includes('/sitemaps/problems-'));
});
afterAll(() => stack.close());

describe('robots.txt and llms.txt', () => {
  it('robots.txt allows the records, keeps crawlers off accounts and operators, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/account$/m);
    expect(text).toMatch(/^Disallow: \/api\/ops\/$/m);
    expect(text).toContain('Sitemap: http://service.test/sitemap.xml');
  });

  it('llms.txt tells an agent how to search, read and contribute, with links that answer', async () => {
    const text = await (await get('/llms.txt')).text();
    expect(text).toMatch(/^# Agent Knowledge\n\n> /);
    for (const section of ['## Search', '## Read', '## Contribute']) expect(text).toContain(section);
    const links = [...text.matchAll(/\]\((http:\/\/service\.test[^)]+)\)/g)].map((m) =>
      m[1]!.slice('http://service.test'.length),
    );
    expect(links.length).toBeGreaterThan(8);
    for (const link of links) expect([link, (await get(link)).status]).toEqual([link, 200]);
  });
});

describe('the OpenAPI document and the favicon at their usual places', () => {
  it('serves /openapi.json, and /api/v1 points at it with Link rel="service-desc"', async () => {
    const doc = await (await get('/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc).toEqual(await (await get('/api/v1/openapi.json')).json());
    const index = await get('/api/v1');
    expect(index.headers.get('link')).toContain('</api/v1/openapi.json>; rel="service-desc"');
  });

  it('answers /favicon.ico with the icon every page declares', async () => {
    const icon = await get('/favicon.ico', { redirect: 'manual' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toBe(await (await get('/favicon.svg')).text());
  });
});

describe('Link headers on paginated answers', () => {
  it('give rel=next while there is more and rel=prev/first past the first page', async () => {
    const first = await get('/api/problems?limit=1');
    expect(first.headers.get('link')).toBe('</api/problems?limit=1&page=2>; rel="next"');
    const second = await get('/api/problems?limit=1&page=2');
    expect(second.headers.get('link')).toBe(
      '</api/problems?limit=1&page=3>; rel="next", </api/problems?limit=1>; rel="prev", </api/problems?limit=1>; rel="first"',
    );
    const last = await get('/api/problems?limit=1&page=3');
    expect(last.headers.get('link')).toBe(
      '</api/problems?limit=1&page=2>; rel="prev", </api/problems?limit=1>; rel="first"',
    );
    // Following rel=next visits every item once.
    const seen: string[] = [];
    for (let url: string | undefined = '/api/problems?limit=1'; url; ) {
      const res = await get(url);
      seen.push(...(await res.json()).items.map((i: { id: string }) => i.id));
      url = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    expect(seen.sort()).toEqual([...problems].sort());
  });

  it('give search answers the same links', async () => {
    const res = await get('/api/v1/search?q=Discoverable&limit=1');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect((await get('/api/search?q=Discoverable&limit=1&page=2')).headers.get('link')).toContain('rel="prev"');
  });

  it('give the change feed rel=next with the cursor to continue from', async () => {
    // The feed shows changes once no running transaction on the server can still take a lower cursor.
    const { res, body } = await eventually(async () => {
      const answer = await get('/api/v1/changes?limit=1');
      const json = await answer.json();
      return json.has_more ? { res: answer, body: json } : null;
    }, 30_000);
    expect(res.headers.get('link')).toBe(`</api/v1/changes?limit=1&since=${body.next_cursor}>; rel="next"`);
  });
});

describe('the sitemap', () => {
  it("is a sitemap index whose chunks list every record's canonical URL", async () => {
    const index = await get('/sitemap.xml');
    expect(index.headers.get('content-type')).toBe('application/xml');
    const indexXml = await index.text();
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const urls: string[] = [];
    for (const chunk of locs(indexXml)) {
      const res = await get(new URL(chunk).pathname);
      expect(res.status).toBe(200);
      urls.push(...locs(await res.text()));
    }
    for (const id of problems) expect(urls).toContain(`http://service.test/problems/${id}`);
    expect(urls).toContain(`http://service.test/agents/${agent.id}`);
    expect((await get('/sitemaps/problems-1999-01-01.xml')).status).toBe(404);
    expect((await get('/sitemaps/..%2F.sitemap-state.json')).status).toBe(404);
  });

  it('re-writes only the chunk a write touches, not the whole sitemap', async () => {
    const dir = stack.config.PROJECTIONS_DIR;
    const chunk = locs(await (await get('/sitemap.xml')).text())
      .map((u) => new URL(u).pathname.slice(1))
      .find((p) => p.startsWith('sitemaps/agents-'))!;
    const before = (await stat(path.join(dir, chunk))).mtimeMs;
    const id = (
      await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: 'One more discoverable problem' }))
    ).body.resource.id;
    await eventually(
      async () =>
        await get('/sitemap.xml')
          .then((r) => r.text())
          .then(async (x) => {
            for (const u of locs(x))
              if ((await readFile(path.join(dir, new URL(u).pathname))).includes(id)) return true;
            return false;
          }),
      30_000,
    ); // The feed's horizon may trail other transactions on the server; the worker's sweep catches up.
    // The agents' chunk was not touched by a problem write (its mtime is its content stamp).
    expect((await stat(path.join(dir, chunk))).mtimeMs).toBe(before);
    expect(await updateSitemaps(stack.pool, dir, stack.config.PUBLIC_ORIGIN)).toBe(0);
  });

  it('is rebuilt whole, with the same bytes, when reset', async () => {
    const dir = stack.config.PROJECTIONS_DIR;
    const before = await readFile(path.join(dir, 'sitemap.xml'));
    expect(await resetSitemaps(stack.pool, dir, stack.config.PUBLIC_ORIGIN)).toBeGreaterThan(0);
    expect((await readFile(path.join(dir, 'sitemap.xml'))).equals(before)).toBe(true);
  });
});
