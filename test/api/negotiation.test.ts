import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFormatFor } from '../../api/http/negotiation.ts';
import { admit, errorOf, eventually, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let problemId: string;

beforeAll(async () => {
  stack = await startStack();
  const agent = await admit(stack.base);
  problemId = (await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: 'Negotiated title here' })))
    .body.resource.id;
  // The worker's files (with their precompressed siblings), not an on-demand render.
  await eventually(() =>
    access(path.join(stack.config.PROJECTIONS_DIR, `problems/${problemId}.md`)).then(
      () => true,
      () => false,
    ),
  );
});
afterAll(() => stack.close());

const get = (p: string, accept?: string, extra: Record<string, string> = {}) =>
  fetch(stack.base + p, { headers: { ...(accept ? { accept } : {}), ...extra } });

describe('content negotiation on canonical record URLs', () => {
  it('answers the JSON and Markdown twins by Accept, with Vary: Accept and the twin in Content-Location', async () => {
    const json = await get(`/problems/${problemId}`, 'application/json');
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(json.headers.get('vary')).toContain('Accept');
    expect(json.headers.get('content-location')).toBe(`/problems/${problemId}.json`);
    expect(await json.json()).toMatchObject({ id: problemId, title: 'Negotiated title here' });

    // A pinned revision's twin keeps the pin: the named URL answers the same bytes.
    const pinned = await get(`/problems/${problemId}?revision=1`, 'application/json');
    expect(pinned.status).toBe(200);
    const named = pinned.headers.get('content-location');
    expect(named).toBe(`/problems/${problemId}.json?revision=1`);
    expect(await (await get(named!)).text()).toBe(await pinned.text());

    const md = await get(`/problems/${problemId}`, 'text/markdown');
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.headers.get('vary')).toContain('Accept');
    expect(await md.text()).toContain('Negotiated title here');
  });

  it('answers HTML to browsers, to */* and to no Accept at all, still with Vary: Accept', async () => {
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      '*/*',
      undefined,
      'image/png',
    ]) {
      const res = await get(`/problems/${problemId}`, accept);
      expect(res.headers.get('content-type'), String(accept)).toBe('text/html; charset=utf-8');
      expect(res.headers.get('vary'), String(accept)).toContain('Accept');
      expect(res.headers.get('content-location')).toBeNull();
    }
  });

  it('gives each twin its own ETag and answers 304 to the one the client holds', async () => {
    const json = await get(`/problems/${problemId}`, 'application/json');
    const html = await get(`/problems/${problemId}`, 'text/html');
    expect(json.headers.get('etag')).not.toBe(html.headers.get('etag'));
    const again = await get(`/problems/${problemId}`, 'application/json', {
      'if-none-match': json.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toContain('Accept');
  });

  it('leaves the suffixed twins alone: they answer their own type whatever Accept says', async () => {
    const res = await get(`/problems/${problemId}.md`, 'application/json');
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
  });

  it('names no twin in Content-Location on an error: a missing record, a bad revision', async () => {
    for (const path of ['/problems/prb_missing00000000000000000000', `/problems/${problemId}?revision=abc`]) {
      const res = await get(path, 'application/json');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('content-location'), path).toBeNull();
    }
  });

  it('reads q-values and specificity the usual way', () => {
    expect(recordFormatFor('text/markdown;q=0.9, application/json')).toBe('json');
    expect(recordFormatFor('application/*')).toBe('json');
    expect(recordFormatFor('text/*;q=0.5, text/markdown')).toBe('markdown');
    expect(recordFormatFor('text/html;q=0, */*')).toBe('json');
  });

  it('matches a range that names the charset the twins are in, as HTTP libraries send it', () => {
    expect(recordFormatFor('application/json; charset=utf-8')).toBe('json');
    expect(recordFormatFor('text/markdown; charset=UTF-8')).toBe('markdown');
    expect(recordFormatFor('application/json; charset=iso-8859-1, text/markdown;q=0.5')).toBe('markdown');
  });
});

describe('406 on API paths', () => {
  it('refuses an Accept that excludes JSON with 406 not_acceptable in the Error shape', async () => {
    for (const path of ['/api/v1', '/api/v1/search?q=x', `/api/v1/problems/${problemId}`]) {
      const res = await get(path, 'text/html');
      expect(res.status, path).toBe(406);
      expect(errorOf(await res.json())).toMatchObject({ code: 'not_acceptable', reason: 'unsupported_accept' });
    }
  });

  it('serves JSON to */*, application/json, a wildcard list and no Accept', async () => {
    for (const accept of ['*/*', 'application/json', 'text/html, application/*;q=0.2', undefined]) {
      expect((await get('/api/v1', accept)).status, String(accept)).toBe(200);
    }
  });

  it('serves JSON to application/json with its charset named, on the app and the fast path alike', async () => {
    for (const path of ['/api/v1', '/api/v1/search?q=x', `/api/v1/problems/${problemId}`]) {
      const res = await get(path, 'application/json; charset=utf-8');
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
    expect((await get('/api/v1', 'application/json; charset=iso-8859-1')).status).toBe(406);
  });
});
