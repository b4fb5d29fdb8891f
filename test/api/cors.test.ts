import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { freePort } from '../helpers/ports.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;
let otherSite: Server;
let otherOrigin: string;
const ORIGIN = 'https://app.example';

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  browser = await launchBrowser();
  // A page on another origin (another port), as a third-party browser app would be.
  const port = await freePort();
  otherSite = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'),
  );
  await new Promise<void>((resolve) => otherSite.listen(port, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => otherSite?.close(resolve));
  await stack?.close();
});

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(stack.base + p, { headers: { origin: ORIGIN, ...headers } });
const preflight = (p: string, method = 'GET', requestHeaders?: string) =>
  fetch(stack.base + p, {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': method,
      ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
    },
  });

describe('CORS on public reads', () => {
  it('lets any origin read the API without credentials and exposes the headers clients need', async () => {
    for (const path of ['/api/v1', '/api/v1/search?q=webpack', '/api/problems', '/api/v1/changes']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
      for (const header of ['ETag', 'Link', 'X-Request-Id', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) {
        expect(exposed, `${path} exposes ${header}`).toContain(header);
      }
    }
  });

  it('sends the same headers to a request without an Origin, whose copy a shared cache may hand a cross-origin page', async () => {
    const paths = ['/api/v1', '/api/problems', '/problems/prb_0000000000000000000000000z.json', '/search'];
    for (const path of paths) {
      const crossOrigin = await get(path);
      const plain = await fetch(stack.base + path);
      for (const header of ['access-control-allow-origin', 'access-control-expose-headers']) {
        expect([path, header, plain.headers.get(header)]).toEqual([path, header, crossOrigin.headers.get(header)]);
      }
      expect(plain.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(plain.headers.get('vary') ?? '', path).not.toMatch(/origin/i);
    }
    for (const path of ['/account', '/api/ops/status']) {
      expect(
        (await fetch(stack.base + path, { redirect: 'manual' })).headers.get('access-control-allow-origin'),
      ).toBeNull();
    }
  });

  it('shares refusals too, so a browser app can read the Error body', async () => {
    const res = await get('/problems/prb_0000000000000000000000000z.json');
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("answers a preflight for a read with the path's read methods and the headers a read may send", async () => {
    const res = await preflight('/api/v1/search', 'GET', 'if-none-match');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-none-match');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('grants nothing to a preflight for a path that does not exist or has no read', async () => {
    const missing = await preflight('/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-methods')).toBeNull();
    const writeOnly = await preflight('/api/public/admission', 'POST', 'content-type');
    expect(writeOnly.headers.get('access-control-allow-origin')).toBeNull();
    expect(writeOnly.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('never shares the account pages, the operator endpoints or the tool protocol', async () => {
    for (const path of ['/account', '/account/signin', '/api/ops/status']) {
      const res = await get(path);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect((await preflight(path)).headers.get('access-control-allow-origin'), path).toBeNull();
    }
    const tools = await fetch(`${stack.base}/mcp/participate`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(tools.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a page on another origin in real Chromium read a record list and its ETag, and refuses it the account page', async () => {
    const { page } = await browser.open(`${otherOrigin}/`);
    const read = await page.evaluate(async (base) => {
      const res = await fetch(`${base}/api/v1/search?q=webpack`, { headers: { 'if-none-match': '"x"' } });
      return { status: res.status, etag: res.headers.get('etag'), items: Array.isArray((await res.json()).items) };
    }, stack.base);
    expect(read).toEqual({ status: 200, etag: expect.stringMatching(/^"/), items: true });
    const refused = await page.evaluate(
      async (base) =>
        fetch(`${base}/account`).then(
          () => 'read',
          () => 'refused',
        ),
      stack.base,
    );
    expect(refused).toBe('refused');
  });
});
