/**
 * The authorization server and the protected resource over real HTTP:
 * metadata, the 401 challenge, a connection's token on /mcp/participate and
 * nowhere else, and every bad input of the issue answered with a clear
 * OAuth error that changes nothing.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { admit } from '../helpers/client.ts';
import {
  authorizeUrl,
  connect,
  CookieJar,
  mcpPost,
  pkce,
  registerClient,
  runAuthorization,
  seedSignedInAccount,
  shownError,
  tokenRequest,
  toolCall,
} from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let base: string;
let resource: string;
let cookie: string;
let identityId: string;

beforeAll(async () => {
  stack = await startStack({}, { worker: false, originFromPort: true });
  base = stack.base;
  resource = `${base}/mcp/participate`;
  ({ cookie, identityId } = await seedSignedInAccount(stack.pool, 'oauth-person'));
});
afterAll(async () => {
  await stack?.close();
});

const count = async (sql: string) => Number((await stack.pool.query(sql)).rows[0].n);
/** What a refused request must leave alone: grants, tokens and connections. */
const stored = async () => ({
  grants: await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Grant'`),
  tokens: await count(
    `SELECT count(*) AS n FROM oauth_records WHERE model IN ('AccessToken', 'RefreshToken', 'AuthorizationCode')`,
  ),
  connections: await count('SELECT count(*) AS n FROM oauth_connections'),
});

describe('metadata', () => {
  it('serves protected resource metadata at the root and at the path-suffixed location', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp/participate',
    ]) {
      const res = await fetch(base + path);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ resource, authorization_servers: [base], bearer_methods_supported: ['header'] });
      expect(body.scopes_supported).toEqual([
        'post',
        'reply',
        'knowledge',
        'feedback',
        'edit_own',
        'report_failure',
        'report_outdated',
        'add_evidence',
      ]);
    }
  });

  it('serves authorization server metadata with PKCE S256 only, registration and revocation', async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      response_types_supported: ['code'],
    });
    expect(body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(body.client_id_metadata_document_supported).toBe(true);
  });
});

describe("HEAD of the provider's own answers", () => {
  it('answers once, keeps the connection and logs no error', async () => {
    const errors = vi.spyOn(console, 'error');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const request = (method: string, path: string) =>
      new Promise<{ status: number; type: string | undefined; reused: boolean; body: string }>((resolve, reject) => {
        const req = http.request(new URL(path, base), { method, agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], reused: req.reusedSocket, body }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const first = await request('GET', '/.well-known/openid-configuration');
      expect(first.status).toBe(200);
      for (const path of [
        '/.well-known/openid-configuration',
        '/.well-known/oauth-authorization-server',
        '/oauth/jwks',
      ]) {
        const head = await request('HEAD', path);
        expect(head).toMatchObject({ status: 200, reused: true, body: '' });
        expect(head.type).toMatch(/^application\/(json|jwk-set\+json)/);
      }
      // The same connection still serves the next request.
      expect(await request('GET', '/.well-known/openid-configuration')).toMatchObject({ status: 200, reused: true });
      expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
      agent.destroy();
    }
  });
});

describe('/mcp/participate as a protected resource', () => {
  it('answers a request with no credential 401 connection_required with the resource metadata challenge', async () => {
    const res = await mcpPost(base, null, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/participate"`,
    );
    expect(res.body.error).toMatchObject({
      code: 'connection_required',
      status: 401,
      recovery: { next_action: 'verify_oauth_connection', human_action_required: true },
    });
  });

  it('keeps accepting direct credentials', async () => {
    const agent = await admit(base);
    const res = await mcpPost(base, agent.secret, toolCall('whoami'));
    expect(res.status).toBe(200);
    expect(res.body.result.structuredContent).toMatchObject({ authenticated: true, identity: { id: agent.id } });
  });

  it('answers whoami for an OAuth token with the identity, the connection and verify_oauth_connection', async () => {
    const { tokens, client } = await connect(base, cookie);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(tokens.refresh_token).toBeTruthy();
    const res = await mcpPost(base, tokens.access_token!, toolCall('whoami'));
    expect(res.status).toBe(200);
    const facts = res.body.result.structuredContent;
    expect(facts).toMatchObject({
      authenticated: true,
      identity: { id: identityId, kind: 'pseudonymous', handle: 'oauth-person' },
      connection: {
        client_id: client.client_id,
        client_name: 'Test Chat Client',
        scopes: expect.arrayContaining(['knowledge', 'post']),
      },
      next_action: 'verify_oauth_connection',
    });
    expect(Date.parse(facts.connection.expires_at)).toBeGreaterThan(Date.now());
  });

  it('refuses the token on /api/whoami and on the HTTP write paths', async () => {
    const { tokens } = await connect(base, cookie);
    const whoami = await fetch(`${base}/api/whoami`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(whoami.status).toBe(401);
    expect((await whoami.json()).error).toMatchObject({ code: 'invalid_or_revoked_credential' });
    const write = await fetch(`${base}/api/problems`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        'idempotency-key': 'oauth-test:write-00000001',
      },
      body: JSON.stringify({ title: 'x', body: 'y', product: 'z' }),
    });
    expect(write.status).toBe(401);
    expect(await count('SELECT count(*) AS n FROM problems')).toBe(0);
  });

  it('answers a tool call outside the granted scopes with a step-up challenge, before it runs', async () => {
    const { tokens } = await connect(base, cookie, { keepScopes: ['reply'] });
    const res = await mcpPost(
      base,
      tokens.access_token!,
      toolCall('create_problem', { idempotency_key: 'oauth-test:stepup-0001', title: 't', body: 'b', product: 'p' }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="knowledge", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/participate"`,
    );
    expect(res.body.error).toMatchObject({ code: 'insufficient_permission', reason: 'missing_scope' });
  });
});

describe('bad input gets an OAuth error and changes nothing', () => {
  const redirectUri = 'http://127.0.0.1:9/callback';
  let clientId: string;
  beforeAll(async () => {
    clientId = (await registerClient(base, redirectUri)).client_id;
  });

  async function authorizeOnce(params: Partial<Parameters<typeof authorizeUrl>[1]>) {
    const { challenge } = pkce();
    const before = await stored();
    const out = await runAuthorization(
      base,
      new CookieJar(cookie),
      authorizeUrl(base, {
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
        scope: 'post',
        ...params,
      }),
    );
    expect(await stored()).toEqual(before);
    return out;
  }

  it('refuses an unregistered redirect_uri on a page of its own, never redirecting there', async () => {
    const { location, response } = await authorizeOnce({ redirect_uri: 'http://127.0.0.1:9/elsewhere' });
    expect(location).toBeUndefined();
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('invalid_redirect_uri');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses a registration with a redirect_uri that is not a URL', async () => {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['not a url'], token_endpoint_auth_method: 'none' }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_redirect_uri');
  });

  /** A refusal on the service's own page, never a redirect. */
  async function shownOnPage(out: { location?: URL; response: Response }) {
    expect(out.location).toBeUndefined();
    expect(out.response.status).toBe(400);
    return shownError(out.response);
  }

  it('refuses a request without PKCE on a page of its own, for a client the person never approved', async () => {
    const shown = await shownOnPage(
      await authorizeOnce({ code_challenge: undefined, code_challenge_method: undefined }),
    );
    expect(shown.error).toBe('invalid_request');
    expect(shown.description).toMatch(/PKCE/);
  });

  it('refuses plain PKCE on a page of its own', async () => {
    const shown = await shownOnPage(
      await authorizeOnce({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
    );
    expect(shown.error).toBe('invalid_request');
    expect(shown.description).toMatch(/code_challenge_method/);
  });

  it('refuses a resource other than /mcp/participate on a page of its own', async () => {
    expect((await shownOnPage(await authorizeOnce({ resource: `${base}/api/problems` }))).error).toBe('invalid_target');
  });

  it('tells a client the person approved about a bad request at its redirect URI', async () => {
    const { client } = await connect(base, cookie, { redirectUri });
    const { challenge } = pkce();
    const { location } = await runAuthorization(
      base,
      new CookieJar(cookie),
      authorizeUrl(base, {
        client_id: client.client_id,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: `${base}/api/problems`,
        scope: 'post',
      }),
    );
    expect(location?.searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a replayed authorization code and revokes what the first use issued', async () => {
    const { code, verifier, client, tokens } = await connect(base, cookie);
    const again = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.client_id,
      resource,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await mcpPost(base, tokens.access_token!, toolCall('whoami'))).status).toBe(401);
  });

  it('refuses a code exchanged with the wrong verifier', async () => {
    const client = await registerClient(base, redirectUri);
    const { challenge } = pkce();
    const { location } = await runAuthorization(
      base,
      new CookieJar(cookie),
      authorizeUrl(base, {
        client_id: client.client_id,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource,
        scope: 'post',
      }),
    );
    const res = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: location!.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: pkce().verifier,
      client_id: client.client_id,
      resource,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('refuses an expired access token with invalid_token', async () => {
    const { tokens } = await connect(base, cookie);
    await stack.pool.query(
      `UPDATE oauth_records SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND id_hash = $1`,
      [sha256Hex(tokens.access_token!)],
    );
    const res = await mcpPost(base, tokens.access_token!, toolCall('whoami'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('rotates refresh tokens, and a reused one revokes the whole connection', async () => {
    const { tokens, client } = await connect(base, cookie);
    const refresh = (token: string) =>
      tokenRequest(base, { grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id, resource });
    const first = await refresh(tokens.refresh_token!);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpPost(base, first.body.access_token!, toolCall('whoami'))).status).toBe(200);

    const reused = await refresh(tokens.refresh_token!);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // Whoever held the stolen copy and whoever held the rotated one both lose the connection.
    expect((await refresh(first.body.refresh_token!)).body.error).toBe('invalid_grant');
    expect((await mcpPost(base, first.body.access_token!, toolCall('whoami'))).status).toBe(401);
  });

  it('lets no two requests presenting one refresh token at once both keep a live chain', async () => {
    const { tokens, client } = await connect(base, cookie);
    const refresh = (token: string) =>
      tokenRequest(base, { grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id, resource });
    // Both can read the token unspent before either spends it: the one that then finds it spent is a reuse.
    const answers = await Promise.all(Array.from({ length: 6 }, () => refresh(tokens.refresh_token!)));
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status === 200)) {
      expect((await refresh(answer.body.refresh_token!)).body.error).toBe('invalid_grant');
      expect((await mcpPost(base, answer.body.access_token!, toolCall('whoami'))).status).toBe(401);
    }
    const { rows } = await stack.pool.query<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM oauth_connections WHERE client_id = $1',
      [client.client_id],
    );
    // The account page no longer lists the connection as live.
    expect(rows).toEqual([{ revoked: true }]);
  });

  it('revokes a token per RFC 7009', async () => {
    const { tokens, client } = await connect(base, cookie);
    const res = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, client_id: client.client_id }).toString(),
    });
    expect(res.status).toBe(200);
    expect((await mcpPost(base, tokens.access_token!, toolCall('whoami'))).status).toBe(401);
  });
});

describe('storage', () => {
  it('stores tokens and codes hashed: no issued value appears in the database', async () => {
    const { tokens, code } = await connect(base, cookie);
    const rows = (await stack.pool.query(`SELECT model, row_to_json(r)::text AS row FROM oauth_records r`)).rows as {
      model: string;
      row: string;
    }[];
    for (const [name, secret] of Object.entries({
      access: tokens.access_token!,
      refresh: tokens.refresh_token!,
      code,
    })) {
      expect(rows.filter((r) => r.row.includes(secret)).map((r) => `${name} in ${r.model}`)).toEqual([]);
    }
    const dump = rows.map((r) => r.row).join('');
    expect(dump).toContain(sha256Hex(tokens.access_token!));
  });
});

/** A registered client's authorization request, as far as the interaction page it redirects to. */
async function beginAuthorization(withCookie?: string) {
  const client = await registerClient(base, 'http://127.0.0.1:9/callback');
  const jar = new CookieJar(withCookie);
  const first = await jar.fetch(
    authorizeUrl(base, {
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource,
      scope: 'post',
    }),
  );
  return { jar, interaction: new URL(first.headers.get('location')!, base).toString() };
}

describe('forms of the person', () => {
  it('refuses a revoke without the CSRF token, and the connection keeps working', async () => {
    const { tokens } = await connect(base, cookie);
    const { grant_id: grantId } = (
      await stack.pool.query(
        'SELECT grant_id FROM oauth_connections WHERE revoked_at IS NULL ORDER BY created_at DESC LIMIT 1',
      )
    ).rows[0];
    for (const csrf of ['', 'f'.repeat(64)]) {
      const res = await fetch(`${base}/account/connections/${grantId}/revoke`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatchObject({ code: 'insufficient_permission', reason: 'csrf_token_invalid' });
    }
    expect((await mcpPost(base, tokens.access_token!, toolCall('whoami'))).status).toBe(200);
  });

  it('refuses a consent without the CSRF token, and grants nothing', async () => {
    const { jar, interaction } = await beginAuthorization(cookie);
    expect((await jar.fetch(interaction)).status).toBe(200);
    const before = await stored();
    const res = await jar.fetch(`${interaction}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: 'scope=post',
    });
    expect(res.status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('sends a person who is not signed in from the interaction to /account/signin and back', async () => {
    const { jar, interaction } = await beginAuthorization();
    const page = await jar.fetch(interaction);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(
      `/account/signin?return_to=${encodeURIComponent(new URL(interaction).pathname)}`,
    );
  });

  it('answers a denial to the client with access_denied, granting nothing', async () => {
    const { jar, interaction } = await beginAuthorization(cookie);
    const html = await (await jar.fetch(interaction)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const before = await stored();
    const { location } = await (async () => {
      let res = await jar.fetch(`${interaction}/abort`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: `csrf=${csrf}`,
      });
      while (res.status === 303 && new URL(res.headers.get('location')!, base).origin === base)
        res = await jar.fetch(new URL(res.headers.get('location')!, base).toString());
      return { location: new URL(res.headers.get('location')!) };
    })();
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(await stored()).toEqual(before);
  });
});

describe('sessions', () => {
  it('ends an expired session: /account sends the person to sign in again', async () => {
    const { cookie: stale } = await seedSignedInAccount(stack.pool, 'expiring-person');
    const fresh = await fetch(`${base}/account`, { redirect: 'manual', headers: { cookie: stale } });
    expect(fresh.status).toBe(200);
    await stack.pool.query(
      `UPDATE account_sessions SET expires_at = now() - interval '1 second' WHERE identity_id = (SELECT id FROM identities WHERE handle = 'expiring-person')`,
    );
    const expired = await fetch(`${base}/account`, { redirect: 'manual', headers: { cookie: stale } });
    expect(expired.status).toBe(303);
    expect(expired.headers.get('location')).toBe('/account/signin?return_to=%2Faccount');
  });

  it('answers a passkey ceremony from another origin with 403, creating nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM passkey_challenges');
    const res = await fetch(`${base}/account/passkeys/register/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ handle: 'someone' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({ code: 'insufficient_permission', reason: 'origin_not_allowed' });
    expect(await count('SELECT count(*) AS n FROM passkey_challenges')).toBe(before);
  });

  it('refuses a passkey answer that does not verify, with the reason, creating no account', async () => {
    const options = await fetch(`${base}/account/passkeys/register/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ handle: 'forger' }),
    });
    const { ceremony } = await options.json();
    const res = await fetch(`${base}/account/passkeys/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        ceremony,
        response: {
          id: 'AAAA',
          rawId: 'AAAA',
          type: 'public-key',
          response: { clientDataJSON: 'e30', attestationObject: 'oA' },
          clientExtensionResults: {},
        },
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_arguments',
      reason: 'passkey_not_verified',
      field: 'response',
    });
    expect(await count(`SELECT count(*) AS n FROM identities WHERE handle = 'forger'`)).toBe(0);
  });
});
