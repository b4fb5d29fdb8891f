/**
 * The recent-records lists for people (`/problems`, `/solutions`,
 * `/discussions`) and their JSON twins, from one view; and the HTML 404 for
 * browsers, while API clients keep the Error shape. Driven in-process with
 * the real database and the built site.
 */
import type { Hono } from 'hono';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { CollectionViewSchema } from '../../core/schemas/collection-views.ts';
import { buildCollectionView, collectionJson } from '../../read-model/collection.ts';
import { errorOf } from '../helpers/client.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE } from '../helpers/record-fixtures.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let pool: pg.Pool;
let app: Hono<AppEnv>;
let running: InProcessApp | undefined;

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app, pool } = running);
});

afterAll(() => running?.close());

const [p1, p2] = FIXTURE.problems;
const [s1, s2] = FIXTURE.solutions;
const [d1, d2] = FIXTURE.discussions;
const idsIn = (html: string) =>
  [...html.matchAll(/<li data-type="[a-z]+" data-id="([a-z]+_[0-9a-z]+)"/g)].map((m) => m[1]);

describe('the HTML lists of recent records', () => {
  it.each([
    ['/problems', 'Recent problems', [p2, p1]],
    ['/solutions', 'Recent solutions', [s2, s1]],
    ['/discussions', 'Recent discussions', [d2, d1]],
  ])('%s lists the newest first, as HTML, with a strong ETag and the JSON twin linked', async (url, heading, ids) => {
    const res = await app.request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=10, stale-while-revalidate=60');
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('link')).toContain(`</api${url}>; rel="alternate"; type="application/json"`);
    const html = await res.text();
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(idsIn(html)).toEqual(ids);
    const again = await app.request(url, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('titles each solution on /solutions by its own first line, naming the problem it solves beside the link', async () => {
    const html = await (await app.request('/solutions')).text();
    const links = [...html.matchAll(/<a class="title" href="([^"]+)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);
    // Two solutions of one problem: each link says which solution it opens.
    expect(links).toEqual([
      [`/solutions/${s2}`, 'Retry with backoff: pg-retry &amp; &lt;em&gt;patience&lt;/em&gt;.'],
      [`/solutions/${s1}`, 'Add depends_on with condition: service_healthy.'],
    ]);
    const problemLink = `<p class="facts">Solution to <a href="/problems/${p1}">ECONNREFUSED &lt;script&gt;alert(1)&lt;/script&gt; at start</a></p>`;
    expect(html.split(problemLink)).toHaveLength(3);
    // The JSON twin carries the text the title is read from.
    const json = await (await app.request('/api/solutions')).json();
    expect(json.items[0].body_start).toBe('Retry with backoff: `pg-retry` & <em>patience</em>.');
  });

  it('shows handles, human dates with the machine value kept, and labels instead of raw enum values', async () => {
    const html = await (await app.request('/problems')).text();
    expect(html).toContain('by <a href="/agents/agt_00000000000000000000000001">fixture-alice</a>');
    // The guest has no handle: its id is shown, marked as an id.
    expect(await (await app.request('/discussions')).text()).toContain(
      'by <a href="/agents/agt_00000000000000000000000002" class="id">agt_00000000000000000000000002</a>',
    );
    expect(html).toMatch(/<time datetime="2026-01-\d\dT\d\d:30:00\.000Z">\d{1,2} Jan 2026, \d\d:30 UTC<\/time>/);
    expect(html).toContain('<span data-status="open">Open</span> · <span>revision 2</span> · by');
    expect(html).not.toContain('>open<');
  });

  it('escapes titles, which are contribution text', async () => {
    const html = await (await app.request('/problems')).text();
    expect(html).toContain('ECONNREFUSED &lt;script&gt;alert(1)&lt;/script&gt; at start');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('narrows a list to one product, ignoring case, in HTML and JSON alike', async () => {
    const html = await (await app.request('/problems?product=Node-Postgres')).text();
    expect(idsIn(html)).toEqual([p1]);
    expect(html).toContain('Recent problems for <span class="literal">Node-Postgres</span>');
    const json = await (await app.request('/api/solutions?product=node-postgres')).json();
    expect(json.items.map((i: { id: string }) => i.id)).toEqual([s2, s1]);
    expect(json.items[0].problem).toMatchObject({ id: p1, product: 'node-postgres' });
    const none = await (await app.request('/discussions?product=vite')).text();
    expect(idsIn(none)).toEqual([]);
    expect(none).toContain('No discussions yet for this product.');
  });

  it('treats an empty product (a cleared filter form) as every product', async () => {
    const html = await (await app.request('/problems?product=')).text();
    expect(idsIn(html)).toEqual([p2, p1]);
  });

  it('pages with rel=next/prev links in the body and in Link headers', async () => {
    const first = await app.request('/problems?limit=1');
    expect(first.headers.get('link')).toContain('</problems?limit=1&page=2>; rel="next"');
    const firstHtml = await first.text();
    expect(idsIn(firstHtml)).toEqual([p2]);
    expect(firstHtml).toContain('<a rel="next" href="/problems?page=2&amp;limit=1">Next</a>');
    const second = await app.request('/problems?page=2&limit=1');
    const secondHtml = await second.text();
    expect(idsIn(secondHtml)).toEqual([p1]);
    expect(secondHtml).toContain('<a rel="prev" href="/problems?limit=1">Previous</a>');
    expect(secondHtml).toContain('<ol class="records" start="2">');
  });

  it('gives the JSON collection and the HTML list the same view', async () => {
    const view = await buildCollectionView(pool, 'discussion', { page: 1, limit: 20, product: undefined });
    expect(CollectionViewSchema.parse(view)).toEqual(view);
    const json = await (await app.request('/api/discussions')).json();
    expect(json).toEqual(JSON.parse(JSON.stringify(collectionJson(view))));
    expect(json.items[1]).toMatchObject({
      id: d1,
      author: { id: FIXTURE.authors[0], handle: 'fixture-alice' },
      reply_count: 2,
    });
    const html = await (await app.request('/discussions')).text();
    expect(html).toContain('Which pool size?');
    expect(html).toContain('2 replies');
  });

  it('refuses out-of-range parameters with the Error shape', async () => {
    const res = await app.request('/problems?page=0');
    expect(res.status).toBe(400);
    expect(errorOf(await res.json()).field).toBe('page');
  });
});

describe('the HTML 404', () => {
  it('answers a browser that mistyped a record URL with the HTML page and status 404', async () => {
    const res = await app.request(`/problems/${p1.slice(0, -1)}x`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toContain('Accept');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<h1>Nothing is here</h1>');
    expect(html).toContain('<a href="/search">Search</a>');
  });

  it('answers a browser on an unknown page path and on a malformed record name alike', async () => {
    for (const url of ['/problemz', '/solutions/not-an-id', '/agents/agt_0']) {
      const res = await app.request(url, { headers: { accept: BROWSER_ACCEPT } });
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).toContain('<h1>Nothing is here</h1>');
    }
  });

  it('keeps the JSON Error shape for API clients and for API paths', async () => {
    for (const [url, accept] of [
      [`/problems/${p1.slice(0, -1)}x`, 'application/json'],
      [`/problems/${p1.slice(0, -1)}x`, '*/*'],
      [`/problems/${p1.slice(0, -1)}x`, undefined],
      ['/api/v1/problems/prb_0', BROWSER_ACCEPT],
      ['/api/nothing', BROWSER_ACCEPT],
    ] as const) {
      const res = await app.request(url, accept ? { headers: { accept } } : {});
      expect(res.status, `${url} ${accept}`).toBe(404);
      expect(res.headers.get('content-type'), `${url} ${accept}`).toContain('application/json');
      expect(errorOf(await res.json()).code).toBe('not_found');
    }
  });

  it('answers HEAD from a browser with the status and no body', async () => {
    const res = await app.request('/problemz', { method: 'HEAD', headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });
});
