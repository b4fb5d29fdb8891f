/**
 * The accounts and OAuth surface replayed as a hostile client would, each
 * attack against the rule that now stops it:
 *
 * - sign-out and another person's sign-in end the authorization server's
 *   session: B never gets a token for A on the same browser;
 * - dynamic registration is bounded per client key, capped in size, and
 *   unused clients expire (with the operator's command to list and prune);
 * - no error is sent to a redirect URI the signed-in person never approved;
 * - metadata follows PUBLIC_ORIGIN, never Host or X-Forwarded-Host;
 * - the fence covers every write of the surface, and read tools of an
 *   OAuth connection keep working while it stands (operator or read-only
 *   database);
 * - pushed authorization requests are not advertised, and every endpoint
 *   the metadata names is served.
 *
 * The service sits behind one trusted proxy, so X-Forwarded-For names the
 * client address as nginx would.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFenceCommand } from '../../db/queries/serving-fence.ts';
import { errorOf, eventually } from '../helpers/client.ts';
import { adminUrl } from '../helpers/database.ts';
import {
  authorizeUrl,
  connect,
  CookieJar,
  mcpPost,
  pkce,
  registerClient,
  runAuthorization,
  seedSignedInAccount,
  tokenRequest,
  toolCall,
} from '../helpers/oauth.ts';
import { passkeySignUp } from '../helpers/software-passkey.ts';
import { leaks, secretCases } from '../helpers/secret-corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
let stack: Stack;
let base: string;
let resource: string;
const redirectUri = 'http://127.0.0.1:9/callback';
const SCOPE = 'post reply knowledge';
const REGISTRATIONS = 20;
const UNUSED_TTL_SECONDS = 86_400;

beforeAll(async () => {
  stack = await startStack(
    {
      TRUSTED_PROXY_HOPS: '1',
      CLIENT_REGISTRATION_RATE_LIMIT: String(REGISTRATIONS),
      CLIENT_UNUSED_TTL_SECONDS: String(UNUSED_TTL_SECONDS),
    },
    { worker: false, originFromPort: true },
  );
  base = stack.base;
  resource = `${base}/mcp/participate`;
});
afterAll(() => stack?.close());

const count = async (sql: string, params: unknown[] = []) => Number((await stack.pool.query(sql, params)).rows[0].n);
let people = 0;
const handle = (name: string) => `${name}-${process.pid}-${++people}`;

/**
 * One authorization request in a browser (`jar`), following this origin's
 * redirects. It stops at the consent page (answering it only when
 * `approve`), or at the first answer that leaves the origin or is not a redirect.
 */
async function authorize(
  jar: CookieJar,
  clientId: string,
  options: { approve?: boolean; extra?: Record<string, string> } = {},
) {
  const { challenge, verifier } = pkce();
  let next = `${authorizeUrl(base, {
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
    scope: SCOPE,
  })}&${new URLSearchParams(options.extra ?? {})}`;
  for (let hop = 0; hop < 10; hop++) {
    const res = await jar.fetch(next);
    const location = res.headers.get('location');
    if (res.status === 200 && new URL(next).pathname.startsWith('/oauth/interaction/')) {
      const page = await res.text();
      if (!options.approve) return { consent: page, verifier };
      const { location: back } = await runAuthorization(base, jar, next);
      return { consent: page, code: back?.searchParams.get('code') ?? undefined, location: back, verifier };
    }
    if (res.status < 300 || res.status >= 400 || !location) return { response: res, verifier };
    const target = new URL(location, next);
    if (target.origin !== base)
      return { location: target, code: target.searchParams.get('code') ?? undefined, verifier };
    next = target.toString();
  }
  throw new Error('too many redirects');
}

async function whoamiWith(code: string, verifier: string, clientId: string) {
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: clientId,
    resource,
  });
  expect(tokens.status).toBe(200);
  return (await mcpPost(base, tokens.body.access_token!, toolCall('whoami'))).body.result.structuredContent.identity
    .handle as string;
}

async function signOut(jar: CookieJar) {
  const page = await (await jar.fetch(`${base}/account`)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const res = await jar.fetch(`${base}/account/signout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ csrf }).toString(),
  });
  expect(res.status).toBe(303);
}

describe('one browser, two people', () => {
  it('asks B for consent after A signed out, and B’s token answers B', async () => {
    const jar = new CookieJar();
    const a = handle('person-a');
    expect((await passkeySignUp(base, a, {}, jar)).status).toBe(200);
    const client = await registerClient(base, redirectUri);
    const first = await authorize(jar, client.client_id, { approve: true });
    expect(await whoamiWith(first.code!, first.verifier, client.client_id)).toBe(a);

    await signOut(jar);
    const b = handle('person-b');
    expect((await passkeySignUp(base, b, {}, jar)).status).toBe(200);
    const second = await authorize(jar, client.client_id);
    // The consent page, for B: never a code issued on A's earlier consent.
    expect(second.code).toBeUndefined();
    expect(second.consent).toMatch(new RegExp(`id="consent-handle">${b}<`));
    const approved = await authorize(jar, client.client_id, { approve: true });
    expect(await whoamiWith(approved.code!, approved.verifier, client.client_id)).toBe(b);
  });

  it('asks B for consent when B signs in over A without signing out, and prompt=none gives B no code', async () => {
    const jar = new CookieJar();
    const a = handle('person-a');
    expect((await passkeySignUp(base, a, {}, jar)).status).toBe(200);
    const client = await registerClient(base, redirectUri);
    expect((await authorize(jar, client.client_id, { approve: true })).code).toBeTruthy();

    const b = handle('person-b');
    expect((await passkeySignUp(base, b, {}, jar)).status).toBe(200);
    const silent = await authorize(jar, client.client_id, { extra: { prompt: 'none' } });
    expect(silent.code).toBeUndefined();
    expect(silent.location).toBeUndefined();
    const second = await authorize(jar, client.client_id);
    expect(second.code).toBeUndefined();
    expect(second.consent).toMatch(new RegExp(`id="consent-handle">${b}<`));
    // Approving connects B: the authorization server's session, which named A, ended with B's sign-in
    // (it had sent the browser to a sign-out confirmation this service does not serve).
    const approved = await authorize(jar, client.client_id, { approve: true });
    expect(approved.code).toBeTruthy();
    expect(await whoamiWith(approved.code!, approved.verifier, client.client_id)).toBe(b);
  });
});

describe('signing out', () => {
  it('is refused from another site’s form, even for a browser whose session cookie stays behind', async () => {
    const res = await fetch(`${base}/account/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: '',
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(errorOf(await res.json())).toMatchObject({ reason: 'origin_not_allowed' });
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('dynamic client registration', () => {
  const register = (body: unknown, address: string) =>
    fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
  const metadata = (extra: Record<string, unknown> = {}) => ({
    client_name: 'Flood',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

  it('answers 429 once one IPv6 /64 has spent its registrations, storing no more clients', async () => {
    const limit = REGISTRATIONS;
    const before = await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'`);
    const statuses: number[] = [];
    for (let n = 1; n <= limit + 3; n++)
      statuses.push((await register(metadata(), `2001:db8:30:1:${n.toString(16)}::${n.toString(16)}`)).status);
    expect(statuses).toEqual([...Array(limit).fill(201), 429, 429, 429]);
    expect(await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'`)).toBe(before + limit);
    const refused = await register(metadata(), '2001:db8:30:1::99');
    expect(errorOf(await refused.json())).toMatchObject({ code: 'rate_limited', reason: 'registration_rate_limited' });
  });

  it('stores and answers a client name carrying a secret shape with the marker in its place', async () => {
    const cases = secretCases().filter((c) => c.text.length <= 200);
    for (const [i, c] of cases.slice(0, 12).entries()) {
      const res = await register(metadata({ client_name: c.text }), `198.51.100.${60 + i}`);
      expect(res.status).toBe(201);
      const answered = (await res.json()) as { client_id: string; client_name: string };
      const stored = (
        await stack.pool.query(`SELECT payload::text AS payload FROM oauth_records WHERE model = 'Client'`)
      ).rows.find((row: { payload: string }) => row.payload.includes(answered.client_id))?.payload;
      expect(stored).toBeDefined();
      expect({ shape: c.shape, leak: leaks(c, `${JSON.stringify(answered)} ${stored}`) }).toEqual({
        shape: c.shape,
        leak: null,
      });
      expect(answered.client_name).toContain('<redacted:');
    }
  });

  it('refuses metadata larger than the cap with 413, storing nothing', async () => {
    const before = await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'`);
    const res = await register(metadata({ client_name: 'x'.repeat(40_000) }), '198.51.100.40');
    expect(res.status).toBe(413);
    expect(errorOf(await res.json())).toMatchObject({ code: 'payload_too_large', reason: 'registration_too_large' });
    expect(await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'`)).toBe(before);
  });

  it('expires a client nobody connected, keeps one that was, and lets the operator list and prune them', async () => {
    const idle = (await (await register(metadata({ client_name: 'Idle' }), '198.51.100.41')).json())
      .client_id as string;
    const { cookie } = await seedSignedInAccount(stack.pool, handle('keeper'));
    const { client: kept } = await connect(base, cookie, { redirectUri });
    const expiryOf = async (clientId: string) =>
      (
        await stack.pool.query(
          `SELECT expires_at FROM oauth_records WHERE model = 'Client' AND payload->>'client_id' = $1`,
          [clientId],
        )
      ).rows[0]?.expires_at as Date | null | undefined;
    const ttl = UNUSED_TTL_SECONDS * 1000;
    expect((await expiryOf(idle))!.getTime()).toBeGreaterThan(Date.now() + ttl - 60_000);
    expect((await expiryOf(idle))!.getTime()).toBeLessThanOrEqual(Date.now() + ttl);
    expect(await expiryOf(kept.client_id)).toBeNull();

    // The lifetime passes (moved here rather than waited for): the client no longer answers.
    await stack.pool.query(
      `UPDATE oauth_records SET expires_at = now() - interval '1 second' WHERE model = 'Client' AND payload->>'client_id' = $1`,
      [idle],
    );
    const refused = await authorize(new CookieJar(cookie), idle);
    expect(refused.location).toBeUndefined();
    expect(refused.response?.status).toBe(400);

    const env = {
      ...process.env,
      DATABASE_URL: stack.config.DATABASE_URL,
      REDIS_URL: stack.config.REDIS_URL,
      PUBLIC_ORIGIN: base,
    };
    const listed = JSON.parse(
      (await run(process.execPath, ['cli/ops.ts', 'oauth-clients', 'list'], { env })).stdout,
    ) as { client_id: string; expired: boolean }[];
    expect(listed.find((c) => c.client_id === idle)).toMatchObject({ expired: true });
    expect(listed.map((c) => c.client_id)).not.toContain(kept.client_id);
    const pruned = JSON.parse((await run(process.execPath, ['cli/ops.ts', 'oauth-clients', 'prune'], { env })).stdout);
    expect(pruned.removed.clients).toBeGreaterThanOrEqual(1);
    expect(await expiryOf(idle)).toBeUndefined();
    expect(await expiryOf(kept.client_id)).toBeNull();
  }, 60_000);
});

describe('errors and redirect URIs nobody approved', () => {
  let clientId: string;
  let cookie: string;
  const evil = 'https://evil.example/land';
  beforeAll(async () => {
    clientId = (await registerClient(base, evil)).client_id;
    ({ cookie } = await seedSignedInAccount(stack.pool, handle('bystander')));
  });

  for (const [what, params] of [
    ['prompt=none', { prompt: 'none' }],
    ['no PKCE', { code_challenge: '', code_challenge_method: '' }],
    ['a resource that is not served', { resource: 'https://elsewhere.example/api' }],
  ] as const) {
    it(`shows a page instead of redirecting to an unapproved client on ${what}`, async () => {
      for (const jar of [new CookieJar(), new CookieJar(cookie)]) {
        const url = new URL(
          authorizeUrl(base, {
            client_id: clientId,
            redirect_uri: evil,
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
            resource,
            scope: SCOPE,
          }),
        );
        for (const [key, value] of Object.entries(params)) {
          if (value) url.searchParams.set(key, value);
          else url.searchParams.delete(key);
        }
        const res = await jar.fetch(url.toString());
        expect(res.headers.get('location'), what).toBeNull();
        expect(res.status, `${what}: ${[...res.headers].join(' ')}`).toBe(400);
        expect(await res.text()).toContain('This connection request was refused');
      }
    });
  }
});

describe('metadata from the configured origin', () => {
  /** A raw GET with the given Host (fetch does not let a caller choose it). */
  const getWith = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(base + path);
      const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (body += chunk))
          .on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject).end();
    });

  it('names only PUBLIC_ORIGIN in every URL, whatever Host or X-Forwarded-Host says', async () => {
    for (const headers of [
      { host: 'evil.example' } as Record<string, string>,
      { host: new URL(base).host, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    ]) {
      for (const path of [
        '/.well-known/oauth-authorization-server',
        '/.well-known/openid-configuration',
        '/.well-known/oauth-protected-resource/mcp/participate',
      ]) {
        const res = await getWith(path, headers);
        expect(res.status, path).toBe(200);
        expect(res.body, path).not.toContain('evil.example');
        const urls = [...res.body.matchAll(/"(https?:\/\/[^"]+)"/g)].map((m) => m[1]!);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith(`${base}/`) || url === base, `${path}: ${url}`).toBe(true);
      }
    }
  });

  it('advertises no pushed authorization request endpoint, and serves every endpoint it names', async () => {
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).not.toHaveProperty('pushed_authorization_request_endpoint');
    expect(metadata).not.toHaveProperty('require_pushed_authorization_requests');
    const endpoints = Object.entries(metadata).filter(
      ([key, value]) => (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string',
    );
    expect(endpoints.length).toBeGreaterThanOrEqual(5);
    for (const [key, url] of endpoints) {
      const get = await fetch(url as string, { redirect: 'manual' });
      const post = await fetch(url as string, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(
        [get.status, post.status].some((s) => s !== 404 && s !== 405),
        key,
      ).toBe(true);
    }
  });
});

describe('the serving fence', () => {
  const fenced = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(errorOf(await res.json())).toMatchObject({ code: 'temporarily_unavailable', reason: 'serving_fenced' });
  };

  it('refuses every write of accounts and OAuth with 503 serving_fenced, while an OAuth connection keeps reading', async () => {
    const jar = new CookieJar();
    expect((await passkeySignUp(base, handle('fence-person'), {}, jar)).status).toBe(200);
    const { cookie } = await seedSignedInAccount(stack.pool, handle('fence-reader'));
    const { tokens, client } = await connect(base, cookie, { redirectUri });
    await applyFenceCommand(stack.pool, { state: 'on', reason: 'identity fence test', retry_after: 30 }, 'test', 30);
    try {
      await eventually(async () => (await (await fetch(`${base}/api/v1`)).json()).serving.writes === 'fenced');
      const json = (path: string, body: unknown) =>
        fetch(base + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base },
          body: JSON.stringify(body),
        });
      await fenced(await json('/oauth/register', { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }));
      await fenced(await json('/account/passkeys/register/options', { handle: handle('fenced') }));
      await fenced(await json('/account/passkeys/signin/options', {}));
      await fenced(
        await fetch(`${base}/api/public/admission`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      );
      await fenced(
        await jar.fetch(
          authorizeUrl(base, {
            client_id: client.client_id,
            redirect_uri: redirectUri,
            code_challenge: pkce().challenge,
            code_challenge_method: 'S256',
            resource,
          }),
        ),
      );
      await fenced(
        await fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token!,
            client_id: client.client_id,
            resource,
          }).toString(),
        }),
      );
      // Reads go on: the connection's read tools and whoami answer, the metadata too.
      expect((await mcpPost(base, tokens.access_token!, toolCall('whoami'))).status).toBe(200);
      const search = await mcpPost(base, tokens.access_token!, toolCall('search', { q: 'anything' }));
      expect(search.status).toBe(200);
      expect(search.body.result.isError).toBeFalsy();
      expect((await fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
    } finally {
      await applyFenceCommand(stack.pool, { state: 'off' }, 'test', 30);
      await eventually(async () => (await (await fetch(`${base}/api/v1`)).json()).serving.writes === 'open');
    }
  });

  it('signs a person out while it stands: both cookies go, the signed-out page answers, and the client is not answered silently after', async () => {
    const jar = new CookieJar();
    expect((await passkeySignUp(base, handle('fenced-signout'), {}, jar)).status).toBe(200);
    const client = await registerClient(base, redirectUri);
    expect((await authorize(jar, client.client_id, { approve: true })).code).toBeTruthy();
    const signedIn = jar.header();
    expect(signedIn).toMatch(/(^|; )ak_session=/);
    expect(signedIn).toMatch(/(^|; )_session=/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await jar.fetch(`${base}/account`)).text())![1]!;
    await applyFenceCommand(stack.pool, { state: 'on', reason: 'sign-out fence test', retry_after: 30 }, 'test', 30);
    try {
      await eventually(async () => (await (await fetch(`${base}/api/v1`)).json()).serving.writes === 'fenced');
      const res = await jar.fetch(`${base}/account/signout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account/signin');
      // Each cookie is cleared on the path it was set on, so a real browser drops it too.
      const cleared = res.headers
        .getSetCookie()
        .filter((c) => /max-age=0/i.test(c) && /path=\//i.test(c))
        .map((c) => c.split('=')[0]);
      expect(cleared).toEqual(expect.arrayContaining(['ak_session', '_session', '_session.sig']));
      expect(jar.header()).not.toMatch(/(^|; )(ak_session|_session|_session\.sig)=/);
      // Signed out at once: the account page sends this browser to sign in.
      const account = await jar.fetch(`${base}/account`);
      expect(account.status).toBe(303);
      expect(account.headers.get('location')).toMatch(/^\/account\/signin\?/);
    } finally {
      await applyFenceCommand(stack.pool, { state: 'off' }, 'test', 30);
      await eventually(async () => (await (await fetch(`${base}/api/v1`)).json()).serving.writes === 'open');
    }
    // The client asks again on this browser: sign-in, never a code on the earlier consent.
    const again = await authorize(jar, client.client_id, { extra: { prompt: 'none' } });
    expect(again.code).toBeUndefined();
    const asked = await authorize(jar, client.client_id);
    expect(asked.code).toBeUndefined();
    expect(asked.consent).toBeUndefined();
  });

  it('answers 503, never 500, on a read-only database, and the OAuth connection’s read tools keep working', async () => {
    const { cookie } = await seedSignedInAccount(stack.pool, handle('read-only-reader'));
    const { tokens } = await connect(base, cookie, { redirectUri });
    const name = new URL(stack.config.DATABASE_URL).pathname.slice(1);
    const setReadOnly = async (on: boolean) => {
      const admin = new pg.Client({ connectionString: adminUrl() });
      await admin.connect();
      try {
        await admin.query(
          on
            ? `ALTER DATABASE ${name} SET default_transaction_read_only = on`
            : `ALTER DATABASE ${name} RESET default_transaction_read_only`,
        );
      } finally {
        await admin.end();
      }
      // Drop every idle pooled session, so the next ones start as the database now says.
      const held = await Promise.all(Array.from({ length: stack.pool.totalCount }, () => stack.pool.connect()));
      for (const client of held) client.release(new Error('reopen'));
    };
    // The stamp was written moments ago; move it back so the next call would write it.
    await stack.pool.query(`UPDATE oauth_connections SET last_used_at = now() - interval '1 hour'`);
    await setReadOnly(true);
    try {
      for (const tool of [toolCall('whoami'), toolCall('search', { q: 'anything' })]) {
        const res = await mcpPost(base, tokens.access_token!, tool);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.result.isError).toBeFalsy();
      }
      const register = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
      });
      await fenced(register);
    } finally {
      await setReadOnly(false);
    }
  }, 60_000);
});
