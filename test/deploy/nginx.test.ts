/**
 * The shipped nginx config (deploy/nginx/agent-knowledge.conf), run by the
 * Debian nginx in front of a real API and worker: what it serves from disk
 * must be what the service serves, and everything else must reach the service.
 */
import { readdir, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../../core/etag.ts';
import { admit, errorOf, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { startNginx, type Nginx } from '../helpers/nginx.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let nginx: Nginx;
let agent: Agent;
let problemId: string;

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A GET whose body is left as sent (fetch would decode a Content-Encoding). */
function rawGet(base: string, p: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>(
    (resolve, reject) => {
      httpGet(base + p, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string | undefined>,
            body: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}

async function request(base: string, p: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + p, init);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
const viaNginx = (p: string, init?: RequestInit) => request(nginx.base, p, init);
const viaService = (p: string, init?: RequestInit) => request(stack.base, p, init);

/** The service stamps every answer with X-Request-Id; a file nginx sent itself has none. */
const fromDisk = (a: Answer) => a.headers.get('x-request-id') === null;

/** A header's value for comparison: Vary is a set, whose order means nothing. */
const headerValue = (headers: Headers, name: string) => {
  const value = headers.get(name);
  return name === 'vary' && value ? value.split(/,\s*/).sort().join(', ') : value;
};

/** Headers a projection must carry identically from nginx and from the service. */
const SHARED_HEADERS = [
  'etag',
  'content-type',
  'content-length',
  'cache-control',
  'x-content-type-options',
  'content-security-policy',
  'vary',
];

async function renderedJson(id: string, revision: number) {
  return eventually(async () => {
    const a = await viaService(`/api/v1/problems/${id}`);
    return a.status === 200 && JSON.parse(a.body.toString()).revision === revision ? a : null;
  });
}

beforeAll(async () => {
  stack = await startStack({ TRUST_PROXY: 'true' });
  nginx = await startNginx({
    AK_UPSTREAM: `127.0.0.1:${stack.api.port}`,
    AK_PROJECTIONS_DIR: stack.config.PROJECTIONS_DIR,
    AK_CLIENT_DIR: path.resolve(stack.config.ASTRO_CLIENT_DIR),
  });
  agent = await admit(stack.base);
  const created = await send(
    nginx.base,
    agent,
    'POST',
    '/api/problems',
    problemBody({ title: 'Served by nginx from disk' }),
  );
  expect(created.status).toBe(201);
  problemId = created.body.resource.id;
  // Written by the worker: the .md is the last of the three files.
  await eventually(async () => fromDisk(await viaNginx(`/problems/${problemId}.md`)));
});
afterAll(async () => {
  await nginx?.close();
  await stack?.close();
});

describe('nginx in front of the service', () => {
  it.each([
    ['HTML', (id: string) => `/problems/${id}`, 'text/html; charset=utf-8'],
    ['JSON', (id: string) => `/problems/${id}.json`, 'application/json'],
    ['Markdown', (id: string) => `/problems/${id}.md`, 'text/markdown; charset=utf-8'],
    ['API JSON', (id: string) => `/api/v1/problems/${id}`, 'application/json'],
  ])(
    "serves the %s projection from disk with the service's bytes, ETag, media type and headers",
    async (_, url, mediaType) => {
      const identity = { headers: { 'accept-encoding': 'identity' } };
      const edge = await viaNginx(url(problemId), identity);
      const origin = await viaService(url(problemId), identity);
      expect(edge.status).toBe(200);
      expect(fromDisk(edge)).toBe(true);
      expect(edge.body.equals(origin.body)).toBe(true);
      expect(edge.headers.get('content-type')).toBe(mediaType);
      expect(edge.headers.get('etag')).toBe(etagOf(edge.body));
      for (const header of SHARED_HEADERS)
        expect([header, headerValue(edge.headers, header)]).toEqual([header, headerValue(origin.headers, header)]);
      // The mtime is a content stamp, not a date.
      expect(edge.headers.get('last-modified')).toBeNull();
    },
  );

  it("sends the worker's precompressed .gz from disk like the service: same bytes, its own strong ETag, Vary: Accept-Encoding, 304", async () => {
    for (const url of [
      `/problems/${problemId}`,
      `/problems/${problemId}.json`,
      `/problems/${problemId}.md`,
      `/api/v1/problems/${problemId}`,
    ]) {
      const edge = await rawGet(nginx.base, url, { 'accept-encoding': 'gzip' });
      const origin = await rawGet(stack.base, url, { 'accept-encoding': 'gzip' });
      expect([url, edge.headers['content-encoding'], origin.headers['content-encoding']]).toEqual([
        url,
        'gzip',
        'gzip',
      ]);
      expect(edge.headers['x-request-id']).toBeUndefined();
      expect(edge.body.equals(origin.body)).toBe(true);
      expect(edge.headers.etag).toBe(origin.headers.etag);
      expect(edge.headers.etag).toBe(etagOf(edge.body));
      expect(edge.headers.etag).not.toBe(
        (await viaNginx(url, { headers: { 'accept-encoding': 'identity' } })).headers.get('etag'),
      );
      expect(edge.headers.vary).toContain('Accept-Encoding');
      expect(
        gunzipSync(edge.body).equals((await viaService(url, { headers: { 'accept-encoding': 'identity' } })).body),
      ).toBe(true);
      const again = await rawGet(nginx.base, url, { 'accept-encoding': 'gzip', 'if-none-match': edge.headers.etag! });
      expect([url, again.status]).toEqual([url, 304]);
    }
  });

  it('negotiates canonical record URLs like the service: HTML from disk, the JSON and Markdown twins by Accept', async () => {
    for (const [accept, mediaType, disk] of [
      ['text/html,*/*;q=0.8', 'text/html; charset=utf-8', true],
      ['application/json', 'application/json', false],
      ['text/markdown', 'text/markdown; charset=utf-8', false],
    ] as const) {
      const edge = await viaNginx(`/problems/${problemId}`, { headers: { accept } });
      const origin = await viaService(`/problems/${problemId}`, { headers: { accept } });
      expect([accept, fromDisk(edge)]).toEqual([accept, disk]);
      expect(edge.headers.get('content-type')).toBe(mediaType);
      expect(edge.headers.get('vary')).toContain('Accept');
      expect(edge.body.equals(origin.body)).toBe(true);
    }
  });

  it('answers every Accept as the service does: from disk only where no q-value reading is needed', async () => {
    const canonical = `/problems/${problemId}`;
    const api = `/api/v1/problems/${problemId}`;
    for (const [url, accept, status, mediaType, disk] of [
      [canonical, '', 200, 'text/html; charset=utf-8', true],
      [canonical, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 200, 'text/html', true],
      [canonical, 'text/html;q=0.1, */*', 200, 'application/json', false],
      [canonical, 'text/html;q=0.5, text/*', 200, 'text/markdown', false],
      [canonical, 'application/json; charset=utf-8', 200, 'application/json', false],
      [api, '', 200, 'application/json', true],
      [api, 'application/json, text/plain, */*', 200, 'application/json', true],
      [api, 'application/json; charset=utf-8', 200, 'application/json', true],
      [api, 'text/html', 406, 'application/json', false],
      [api, 'application/json;q=0, text/html', 406, 'application/json', false],
    ] as const) {
      const edge = await viaNginx(url, { headers: { accept } });
      const origin = await viaService(url, { headers: { accept } });
      const seen = [url, accept, edge.status, edge.headers.get('content-type')?.split(';')[0], fromDisk(edge)];
      expect(seen).toEqual([url, accept, status, mediaType.split(';')[0], disk]);
      expect([url, accept, origin.status]).toEqual([url, accept, status]);
      if (status === 200) expect(edge.body.equals(origin.body)).toBe(true);
    }
  });

  it('compresses for a request through another proxy (Via) as for any other', async () => {
    const res = await rawGet(nginx.base, `/problems/${problemId}.json`, { 'accept-encoding': 'gzip', via: '1.1 cdn' });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  // A cached copy of a request without an Origin serves cross-origin pages too: the headers never depend on it.
  it('adds the public-read CORS headers to files it serves from disk, with or without an Origin', async () => {
    for (const url of [`/problems/${problemId}`, `/problems/${problemId}.json`, `/api/v1/problems/${problemId}`]) {
      for (const headers of [{ origin: 'https://app.example' }, {}] as Record<string, string>[]) {
        const edge = await viaNginx(url, { headers });
        const origin = await viaService(url, { headers });
        expect(fromDisk(edge)).toBe(true);
        expect(edge.headers.get('access-control-allow-origin')).toBe('*');
        for (const header of ['access-control-allow-origin', 'access-control-expose-headers']) {
          expect([url, header, edge.headers.get(header)]).toEqual([url, header, origin.headers.get(header)]);
        }
      }
    }
  });

  it("serves agent pages from disk too, with the HTML page's Content-Security-Policy", async () => {
    const edge = await viaNginx(`/agents/${agent.id}`, { headers: { 'accept-encoding': 'identity' } });
    const origin = await viaService(`/agents/${agent.id}`, { headers: { 'accept-encoding': 'identity' } });
    expect(edge.status).toBe(200);
    expect(fromDisk(edge)).toBe(true);
    expect(edge.body.equals(origin.body)).toBe(true);
    expect(edge.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    for (const header of SHARED_HEADERS)
      expect([header, headerValue(edge.headers, header)]).toEqual([header, headerValue(origin.headers, header)]);
  });

  it('answers If-None-Match with the current ETag with 304 from disk, and a stale one with the file', async () => {
    const first = await viaNginx(`/problems/${problemId}`);
    const etag = first.headers.get('etag')!;
    for (const condition of [etag, `"0-0", W/${etag}`]) {
      const again = await viaNginx(`/problems/${problemId}`, { headers: { 'if-none-match': condition } });
      const origin = await viaService(`/problems/${problemId}`, { headers: { 'if-none-match': condition } });
      expect(again.status).toBe(304);
      expect(origin.status).toBe(304);
      expect(fromDisk(again)).toBe(true);
      expect(again.body.length).toBe(0);
      for (const header of ['etag', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
        expect(again.headers.get(header)).toBe(origin.headers.get(header));
      }
      expect(again.headers.get('last-modified')).toBeNull();
    }
    const stale = await viaNginx(`/problems/${problemId}`, { headers: { 'if-none-match': '"0-0"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(first.body)).toBe(true);
  });

  it('answers HEAD from disk with the GET headers and no body', async () => {
    for (const url of [`/problems/${problemId}`, `/api/v1/problems/${problemId}`]) {
      const get = await viaNginx(url);
      const head = await viaNginx(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(fromDisk(head)).toBe(true);
      expect(head.body.length).toBe(0);
      for (const header of SHARED_HEADERS) expect(head.headers.get(header)).toBe(get.headers.get(header));
    }
  });

  it('ignores Range like the service does, answering 200 with the whole file', async () => {
    const headers = { range: 'bytes=0-9' };
    const edge = await viaNginx(`/problems/${problemId}.json`, { headers });
    const origin = await viaService(`/problems/${problemId}.json`, { headers });
    expect([edge.status, origin.status]).toEqual([200, 200]);
    expect(fromDisk(edge)).toBe(true);
    expect(edge.body.equals(origin.body)).toBe(true);
    expect(edge.headers.get('accept-ranges')).toBeNull();
  });

  it('hands record requests with a query string to the service, which renders the view asked for', async () => {
    for (const url of [
      `/problems/${problemId}?revision=1`,
      `/problems/${problemId}.json?page=1&limit=5`,
      `/api/v1/problems/${problemId}?revision=1`,
    ]) {
      const edge = await viaNginx(url);
      const origin = await viaService(url);
      expect(edge.status).toBe(200);
      expect(fromDisk(edge)).toBe(false);
      expect(edge.body.equals(origin.body)).toBe(true);
      expect(edge.headers.get('etag')).toBe(origin.headers.get('etag'));
    }
    const invalid = await viaNginx(`/problems/${problemId}.json?revision=0`);
    expect(invalid.status).toBe(400);
    expect(errorOf(JSON.parse(invalid.body.toString()))).toMatchObject({
      code: 'invalid_arguments',
      field: 'revision',
    });
  });

  it('hands the conditional headers the service ignores (If-Match, If-*-Since) to the service', async () => {
    const etag = (await viaNginx(`/problems/${problemId}`)).headers.get('etag')!;
    // nginx would answer these 412 itself, comparing the content stamp with a date or another tag.
    const dated: Record<string, string>[] = [
      { 'if-match': '"0-0"' },
      { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:01 GMT' },
    ];
    for (const headers of dated) {
      const edge = await viaNginx(`/problems/${problemId}`, { headers });
      expect(edge.status).toBe(200);
      expect(fromDisk(edge)).toBe(false);
    }
    const both = await viaNginx(`/problems/${problemId}`, {
      headers: { 'if-none-match': etag, 'if-modified-since': 'Thu, 01 Jan 1970 00:00:01 GMT' },
    });
    expect(both.status).toBe(304);
    expect(both.headers.get('etag')).toBe(etag);
  });

  it('hands a record whose file is missing to the service, which renders it on demand', async () => {
    const other = await send(
      nginx.base,
      agent,
      'POST',
      '/api/problems',
      problemBody({ title: 'Its Markdown file goes missing' }),
    );
    const id = other.body.resource.id as string;
    await eventually(async () => fromDisk(await viaNginx(`/problems/${id}.md`)));
    await rm(path.join(stack.config.PROJECTIONS_DIR, `problems/${id}.md`));
    const edge = await viaNginx(`/problems/${id}.md`);
    expect(edge.status).toBe(200);
    expect(fromDisk(edge)).toBe(false);
    expect(edge.body.toString()).toContain(`# Problem ${id}`);
    expect(edge.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const unknown = await viaNginx('/problems/prb_00000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(errorOf(JSON.parse(unknown.body.toString())).code).toBe('not_found');
  });

  it('hands every other method on a record path to the service: 405 with Allow, OPTIONS with 204', async () => {
    const post = await viaNginx(`/api/v1/problems/${problemId}`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(errorOf(JSON.parse(post.body.toString())).code).toBe('unsupported_operation');
    const options = await viaNginx(`/problems/${problemId}`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it("proxies dynamic paths and writes, and serves an edit's new ETag from disk once the worker has rendered it", async () => {
    const index = await viaNginx('/api/v1');
    expect(index.status).toBe(200);
    expect(fromDisk(index)).toBe(false);
    expect(index.body.equals((await viaService('/api/v1')).body)).toBe(true);
    const whoami = await viaNginx('/api/whoami', { headers: { authorization: `Bearer ${agent.secret}` } });
    expect(whoami.status).toBe(200);
    expect(JSON.parse(whoami.body.toString()).identity.id).toBe(agent.id);

    const before = (await viaNginx(`/problems/${problemId}.json`)).headers.get('etag')!;
    const edit = await send(nginx.base, agent, 'PATCH', `/api/problems/${problemId}`, {
      base_revision: 1,
      title: 'Revised behind nginx',
    });
    expect(edit.status).toBe(201);
    expect(edit.body).toMatchObject({ status: 'committed', resource: { id: problemId, revision: 2 } });
    const origin = await renderedJson(problemId, 2);
    // The receipt removed the stale file, so the service answers until the worker's file lands; then nginx serves it.
    const edge = await eventually(async () => {
      const a = await viaNginx(`/problems/${problemId}.json`);
      return fromDisk(a) && JSON.parse(a.body.toString()).revision === 2 ? a : null;
    });
    expect(edge.body.equals(origin.body)).toBe(true);
    expect(edge.headers.get('etag')).toBe(origin.headers.get('etag'));
    expect(edge.headers.get('etag')).not.toBe(before);
    expect((await viaNginx(`/problems/${problemId}.json`, { headers: { 'if-none-match': before } })).status).toBe(200);
  });

  it("serves /_astro/ assets from dist/client with immutable caching and the service's media type", async () => {
    const assets = await readdir(path.resolve(stack.config.ASTRO_CLIENT_DIR, '_astro'));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const edge = await viaNginx(`/_astro/${asset}`);
      const origin = await viaService(`/_astro/${asset}`);
      expect(edge.status).toBe(200);
      expect(fromDisk(edge)).toBe(true);
      expect(edge.body.equals(origin.body)).toBe(true);
      expect(edge.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(edge.headers.get('content-type')).toBe(origin.headers.get('content-type'));
      expect(edge.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await viaNginx('/_astro/missing.0000.css')).status).toBe(404);
  });

  it('does not expose /metrics, which the service serves only with the operator token', async () => {
    expect((await viaService('/metrics')).status).toBe(403);
    for (const url of ['/metrics', '/metrics?format=text', '//metrics', '/metrics/', '/./metrics', '/%6detrics']) {
      const edge = await viaNginx(url);
      expect(edge.status).toBe(404);
      expect(edge.body.toString()).not.toContain('ak_http_requests_total');
      expect(errorOf(JSON.parse(edge.body.toString())).code).toBe('not_found');
    }
  });

  it('passes the client address as X-Forwarded-For, replacing one the client made up', async () => {
    const redis = new Redis(stack.config.REDIS_URL!);
    try {
      const readSubjects = async () => {
        const keys: string[] = [];
        for await (const batch of redis.scanStream({ match: `${stack.config.QUEUE_PREFIX}:rl:read:*`, count: 1000 })) {
          keys.push(...(batch as string[]));
        }
        // prefix:rl:read:<client key>:<window>; a client key is `ipv4:<address>` or `ipv6:<hex>/64`.
        return new Set(keys.map((k) => k.split(':').slice(3, -1).join(':')));
      };
      // Directly, with TRUST_PROXY=true, the service believes the header...
      // Counts reach Redis in the local counter's next flush (api/limits/local-counter.ts), so wait for them.
      await viaService('/api/v1', { headers: { 'x-forwarded-for': '203.0.113.7' } });
      await eventually(async () => (await readSubjects()).has('ipv4:203.0.113.7'));
      // ...but through nginx it sees the real peer, whatever the client claims.
      await viaNginx('/api/v1', { headers: { 'x-forwarded-for': '198.51.100.9' } });
      const subjects = await eventually(async () => {
        const seen = await readSubjects();
        return seen.has('ipv4:127.0.0.1') ? seen : null;
      });
      expect(subjects).not.toContain('ipv4:198.51.100.9');
    } finally {
      redis.disconnect();
    }
  });

  it('refuses bodies far over 1 MiB itself, in the Error shape; the service judges the rest', async () => {
    const post = (size: number) =>
      viaNginx('/api/problems', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${agent.secret}`,
          'idempotency-key': `test:big-${size}`,
        },
        body: 'x'.repeat(size),
      });
    const huge = await post(3 * 1024 * 1024);
    expect(huge.status).toBe(413);
    expect(errorOf(JSON.parse(huge.body.toString()))).toMatchObject({
      code: 'payload_too_large',
      reason: 'body_too_large',
    });
    const large = await post(1024 * 1024 + 1);
    expect(large.status).toBe(413);
    expect(fromDisk(large)).toBe(false);
    expect(errorOf(JSON.parse(large.body.toString()))).toMatchObject({
      code: 'payload_too_large',
      reason: 'body_too_large',
    });
  });
});
