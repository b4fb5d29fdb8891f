import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_LIFETIME_DAYS, SCOPES_BY_KIND } from '../../core/credentials.ts';
import { STATIC_PAGES } from '../../api/routes/pages.ts';
import { CONTENT_SECURITY_POLICY } from '../../core/content-security-policy.ts';
import { AUTHENTICATION_HELP } from '../../site/lib/help/authentication.ts';
import { errorOf } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { worker: false });
});
afterAll(() => stack.close());

/** Uncompressed, so lengths and ETags are of the bytes read (test/api/compression.test.ts covers encodings). */
const get = (path: string, init: RequestInit = {}) =>
  fetch(stack.base + path, {
    ...init,
    headers: { 'accept-encoding': 'identity', ...(init.headers as Record<string, string>) },
  });

/** Decodes the few entities Astro writes, so facts can be found in the HTML text. */
const htmlText = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

describe.each([
  ['/agent-help/authentication', 'text/html; charset=utf-8'],
  ['/agent-help/authentication.json', 'application/json'],
  ['/agent-help/authentication.md', 'text/markdown; charset=utf-8'],
])('GET %s', (path, mediaType) => {
  it('answers 200 with its media type, a strong ETag and a public cache policy', async () => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(mediaType);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('cache-control')).toMatch(/^public, /);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
  });

  it('answers 304 to a matching If-None-Match, and 200 to a stale one', async () => {
    const etag = (await get(path)).headers.get('etag')!;
    const hit = await get(path, { headers: { 'if-none-match': etag } });
    expect(hit.status).toBe(304);
    expect(hit.headers.get('etag')).toBe(etag);
    expect(await hit.text()).toBe('');
    expect((await get(path, { headers: { 'if-none-match': '"0-0"' } })).status).toBe(200);
  });

  it('answers HEAD with the same headers as GET and no body', async () => {
    const full = await get(path);
    const head = await get(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) {
      expect(head.headers.get(name), name).toBe(full.headers.get(name));
    }
    expect(await head.text()).toBe('');
  });

  it('answers OPTIONS with 204 and Allow, and POST with 405 unsupported_operation', async () => {
    const options = await get(path, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const post = await get(path, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(errorOf(await post.json()).code).toBe('unsupported_operation');
  });
});

describe('the authentication help', () => {
  it('serves the JSON document with schema_version "1", exactly the facts module', async () => {
    const body = await (await get('/agent-help/authentication.json')).json();
    expect(body.schema_version).toBe('1');
    expect(body).toEqual(JSON.parse(JSON.stringify(AUTHENTICATION_HELP)));
  });

  it('states the scopes each kind may hold and the lifetime the service applies', async () => {
    const body = await (await get('/agent-help/authentication.json')).json();
    const byKind = Object.fromEntries(body.kinds.map((k: { kind: string; scopes: string[] }) => [k.kind, k.scopes]));
    expect(byKind).toEqual({ guest: [...SCOPES_BY_KIND.guest], pseudonymous: [...SCOPES_BY_KIND.pseudonymous] });
    expect(body.credential.lifetime_days).toBe(CREDENTIAL_LIFETIME_DAYS);
  });

  it('is where a 401 points, and describes the recovery the service sends', async () => {
    const error = errorOf(await (await get('/api/whoami')).json());
    const recovery = error.recovery as {
      help: string;
      next_action: string;
      retry: unknown;
      human_action_required: boolean;
    };
    expect((await get(recovery.help)).status).toBe(200);
    const shape = AUTHENTICATION_HELP.unauthenticated.recovery_shape;
    expect(recovery.help).toBe(shape.help);
    expect(recovery.retry).toEqual(shape.retry);
    expect(recovery.human_action_required).toBe(shape.human_action_required);
    const missing = AUTHENTICATION_HELP.unauthenticated.reasons.find((r) => r.reason === error.reason)!;
    expect([missing.code, missing.next_action]).toEqual([error.code, recovery.next_action]);

    const invalid = errorOf(
      await (await get('/api/whoami', { headers: { authorization: `Bearer ${'x'.repeat(43)}` } })).json(),
    );
    const row = AUTHENTICATION_HELP.unauthenticated.reasons.find((r) => r.reason === invalid.reason)!;
    expect([row.code, row.next_action]).toEqual([
      invalid.code,
      (invalid.recovery as { next_action: string }).next_action,
    ]);
  });

  it('says the same facts in HTML and Markdown as in JSON', async () => {
    const html = htmlText(await (await get('/agent-help/authentication')).text());
    const markdown = await (await get('/agent-help/authentication.md')).text();
    expect(markdown).toContain('schema_version: 1');
    const facts = [
      ...AUTHENTICATION_HELP.rules,
      ...AUTHENTICATION_HELP.steps.flatMap((s) => [s.summary, `${s.request.method} ${s.request.path}`, ...s.notes]),
      ...AUTHENTICATION_HELP.unauthenticated.reasons.flatMap((r) => [r.meaning, r.do]),
      ...AUTHENTICATION_HELP.next_actions.map((a) => a.do),
      AUTHENTICATION_HELP.oauth.summary,
      AUTHENTICATION_HELP.credential.expiry,
    ];
    for (const fact of facts) {
      expect(html, fact).toContain(fact);
      expect(markdown, fact).toContain(fact);
    }
    for (const words of [
      'verify_direct_credential',
      'verify_oauth_connection',
      'authentication_required',
      '/mcp/participate',
      'whoami',
    ]) {
      expect(html).toContain(words);
      expect(markdown).toContain(words);
    }
  });

  it('is an HTML page that needs no script, under the default policy in header and meta tag', async () => {
    const res = await get('/agent-help/authentication');
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(res.headers.get('content-security-policy')).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`);
  });
});

describe('prerendered pages', () => {
  it.each(STATIC_PAGES.map((p) => [p.path]))('%s is in the build and served', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
  });

  it('are all listed in the read API index', async () => {
    const index = await (await get('/api/v1')).json();
    for (const page of STATIC_PAGES) expect(index.paths).toContain(`GET ${page.path}`);
  });
});
