/**
 * API rules driven in-process: `createApp(deps)` with the service's own
 * dependencies (a throwaway database, queues under a fresh prefix in the real
 * Redis, the built site for on-demand renders) and `app.request`, no HTTP
 * server and no worker. Writes here stop before the commit: the order of
 * checks, the Error shape, read negotiation of record projections.
 */
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../api/app-deps.ts';
import { credentialHash } from '../../core/hash.ts';
import { jsonProjection } from '../../projections/json.ts';
import { buildRecordView } from '../../read-model/record-view.ts';
import { errorOf } from '../helpers/client.ts';
import { startInProcessApp, type InProcessApp } from '../helpers/in-process-app.ts';
import { FIXTURE, fixtureId } from '../helpers/record-fixtures.ts';

let pool: pg.Pool;
let app: Hono<AppEnv>;
let running: InProcessApp | undefined;
let secret: string;

beforeAll(async () => {
  running = await startInProcessApp();
  ({ app, pool } = running);
  secret = randomBytes(32).toString('base64url');
  const admitted = await app.request('/api/public/admission', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(secret) }),
  });
  expect(admitted.status).toBe(201);
});

afterAll(() => running?.close());

const write = (init: { auth?: string; key?: string; type?: string; body?: string }) =>
  app.request('/api/problems', {
    method: 'POST',
    headers: {
      ...(init.auth ? { authorization: `Bearer ${init.auth}` } : {}),
      ...(init.key ? { 'idempotency-key': init.key } : {}),
      'content-type': init.type ?? 'application/json',
    },
    body: init.body ?? '{}',
  });

describe('the API in-process', () => {
  it('answers the index with a strong ETag, and 304 when If-None-Match matches', async () => {
    const first = await app.request('/api/v1');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await app.request('/api/v1', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('answers OPTIONS with Allow, and a method a path does not take with 405 in the Error shape', async () => {
    const options = await app.request('/api/problems', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const put = await app.request('/api/problems', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(errorOf(await put.json())).toMatchObject({ code: 'unsupported_operation', reason: 'method_not_allowed' });
  });

  it('checks a write in the documented order: credential, scope, key, media type, then the body', async () => {
    expect(errorOf(await (await write({})).json())).toMatchObject({ status: 401, reason: 'missing' });
    // A guest holds no knowledge scope.
    expect(errorOf(await (await write({ auth: secret })).json())).toMatchObject({ status: 403 });
  });

  it('refuses a write without an Idempotency-Key before reading its body', async () => {
    const res = await app.request('/api/discussions/x/replies', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
      body: 'not json',
    });
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({ reason: 'missing_idempotency_key', field: 'Idempotency-Key' });
  });

  it('answers a media type other than JSON with 415, and JSON that does not parse with 400', async () => {
    const key = 'in-process:reply-00000001';
    const path = `/api/discussions/${FIXTURE.discussions[0]}/replies`;
    const headers = { authorization: `Bearer ${secret}`, 'idempotency-key': key };
    const plain = await app.request(path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    const broken = await app.request(path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"body":',
    });
    expect(broken.status).toBe(400);
    expect(errorOf(await broken.json()).code).toBe('invalid_arguments');
  });

  it('renders a pinned revision on demand from the read model, the same JSON as its view', async () => {
    const id = FIXTURE.problems[0];
    const res = await app.request(`/problems/${id}.json?revision=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const view = await buildRecordView(pool, { type: 'problem', id }, { revision: 1, page: 1, limit: 20 });
    const body = await res.text();
    expect(JSON.parse(body).revision).toBe(1);
    expect(JSON.parse(body).title).toBe(view!.type === 'problem' ? view!.title : '');
    // Trust is computed at request time; everything else is the view's bytes.
    const { trust: _a, ...served } = JSON.parse(body);
    const { trust: _b, ...expected } = JSON.parse(jsonProjection(view!));
    expect(served).toEqual(expected);
  });

  it('renders HTML and Markdown of another page on demand, and 404s an unknown revision or record', async () => {
    const id = FIXTURE.problems[0];
    const page = await app.request(`/problems/${id}?page=2`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toMatch(/<h1[^>]*>ECONNREFUSED &lt;script&gt;alert\(1\)&lt;\/script&gt; at start<\/h1>/);
    const md = await app.request(`/discussions/${FIXTURE.discussions[0]}.md?limit=1`);
    expect(md.status).toBe(200);
    expect(await md.text()).toContain('Next page: /api/v1/discussions/');
    const missingRevision = await app.request(`/problems/${id}.json?revision=9`);
    expect(missingRevision.status).toBe(404);
    expect(errorOf(await missingRevision.json()).reason).toBe('unknown_revision');
    const missing = await app.request(`/solutions/${fixtureId('solution', 77)}.md?page=2`);
    expect(missing.status).toBe(404);
    expect(errorOf(await missing.json()).reason).toBe('unknown_solution');
  });

  it('refuses parameters out of range with 400 naming the field', async () => {
    const res = await app.request(`/api/v1/problems/${FIXTURE.problems[0]}?page=0`);
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', field: 'page' });
  });
});
