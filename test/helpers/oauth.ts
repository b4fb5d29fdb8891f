/**
 * OAuth as a client sees it, over real HTTP: register (RFC 7591), PKCE,
 * the authorization redirects with a cookie jar, the token endpoint. The
 * person's part (passkey, consent form) is the browser test's job; here a
 * signed-in session is made directly in the database so the protocol's bad
 * inputs can be tested one by one, and the consent form is sent as a
 * browser would (with its CSRF token).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type pg from 'pg';
import { credentialHash } from '../../core/hash.ts';
import { newId } from '../../core/ids.ts';

export interface RegisteredClient {
  client_id: string;
  redirect_uris: string[];
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An account with a live session, as if it had signed in with a passkey. */
export async function seedSignedInAccount(
  pool: pg.Pool,
  handle: string,
): Promise<{ identityId: string; cookie: string }> {
  const identityId = newId('agent');
  const secret = randomBytes(32).toString('base64url');
  await pool.query(`INSERT INTO identities (id, kind, handle) VALUES ($1, 'pseudonymous', $2)`, [identityId, handle]);
  await pool.query('INSERT INTO accounts (identity_id, user_handle) VALUES ($1, $2)', [
    identityId,
    randomBytes(16).toString('base64url'),
  ]);
  await pool.query(
    `INSERT INTO account_sessions (hash, identity_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
    [credentialHash(secret), identityId],
  );
  return { identityId, cookie: `ak_session=${secret}` };
}

export async function registerClient(
  base: string,
  redirectUri: string,
  name = 'Test Chat Client',
): Promise<RegisteredClient> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as RegisteredClient;
}

/** A browser's cookie jar, enough for one origin. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(initial?: string) {
    if (initial) this.add(initial);
  }
  add(cookie: string): void {
    const [pair] = cookie.split(';');
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at).trim();
    const value = pair!.slice(at + 1).trim();
    if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    for (const cookie of res.headers.getSetCookie()) this.add(cookie);
    return res;
  }
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  resource?: string;
  scope?: string;
  state?: string;
}

export function authorizeUrl(base: string, params: AuthorizeParams): string {
  const defined = Object.entries(params).filter(([, value]) => value !== undefined) as [string, string][];
  const query = new URLSearchParams([['response_type', 'code'], ['state', 'st-1'], ...defined]);
  return `${base}/oauth/authorize?${query}`;
}

/**
 * Follows redirects on this origin from `url`, approving the consent page
 * (keeping `keepScopes`, or everything asked for) when it comes. Answers
 * the first response that leaves the origin (the client's redirect), or
 * the last one on it when it is not a redirect.
 */
export async function runAuthorization(
  base: string,
  jar: CookieJar,
  url: string,
  options: { keepScopes?: string[] } = {},
): Promise<{ location?: URL; response: Response }> {
  let next = url;
  for (let hop = 0; hop < 10; hop++) {
    let res = await jar.fetch(next);
    if (res.status === 200 && new URL(next).pathname.startsWith('/oauth/interaction/')) {
      const html = await res.text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
      const asked = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
      const form = new URLSearchParams({ csrf });
      for (const scope of options.keepScopes ?? asked) form.append('scope', scope);
      res = await jar.fetch(`${next}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: form.toString(),
      });
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return { response: res };
    const target = new URL(location, next);
    if (target.origin !== base) return { location: target, response: res };
    next = target.toString();
  }
  throw new Error('too many redirects');
}

/**
 * The OAuth error of a refusal shown on the service's own page (never
 * redirected: the client is not told), as the person sees it.
 */
export async function shownError(response: Response): Promise<{ error?: string; description?: string }> {
  const page = await response.text();
  const field = (id: string) => new RegExp(`<dd id="${id}">([^<]*)</dd>`).exec(page)?.[1];
  return { error: field('error'), description: field('error-description') };
}

export async function tokenRequest(base: string, params: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** A whole connection for a signed-in account: register, authorize with PKCE, exchange the code. */
export async function connect(
  base: string,
  cookie: string,
  options: { keepScopes?: string[]; redirectUri?: string } = {},
) {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
  const client = await registerClient(base, redirectUri);
  const { verifier, challenge } = pkce();
  const resource = `${base}/mcp/participate`;
  const { location } = await runAuthorization(
    base,
    new CookieJar(cookie),
    authorizeUrl(base, {
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource,
      scope: 'post reply knowledge feedback edit_own report_failure report_outdated add_evidence',
    }),
    options,
  );
  const code = location?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location}`);
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: client.client_id,
    resource,
  });
  if (tokens.status !== 200) throw new Error(`token answered ${tokens.status}: ${JSON.stringify(tokens.body)}`);
  return { client, code, verifier, redirectUri, resource, tokens: tokens.body };
}

/** One JSON-RPC message to /mcp/participate, as a client sends it. */
export async function mcpPost(base: string, token: string | null, message: unknown) {
  const res = await fetch(`${base}/mcp/participate`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export const toolCall = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/**
 * A chat client's OAuth state for the MCP SDK, kept in memory the way a
 * client keeps it on disk. With `clientMetadataUrl` the SDK uses that URL as
 * the client_id (a Client ID Metadata Document) when the server says it
 * accepts them; without, it registers (RFC 7591) with `clientMetadata`.
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl: string;
  readonly clientName: string;
  readonly clientMetadataUrl?: string;
  constructor(redirectUrl: string, clientName: string, clientMetadataUrl?: string) {
    this.redirectUrl = redirectUrl;
    this.clientName = clientName;
    if (clientMetadataUrl) this.clientMetadataUrl = clientMetadataUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
