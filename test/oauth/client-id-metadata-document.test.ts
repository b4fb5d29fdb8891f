/**
 * Client ID Metadata Documents: a chat client whose client_id is the https
 * URL of a JSON document describing it, with no registration. The document
 * is served by a real https server on loopback whose certificate is made for
 * this run (test/helpers/https-server.ts).
 *
 * The service's fetch (api/oauth/client-document-fetch.ts) verifies TLS
 * against the system's CAs and never connects to loopback or private
 * addresses, so it cannot reach that server; the service keeps it. Here the
 * authorization server gets, through the library's documented `fetch`
 * option (ApiOptions.oauthFetch), a fetch that trusts this run's
 * certificate for this one origin, TLS still verified, and hands every
 * other URL to the service's fetch unchanged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDocumentFetch } from '../../api/oauth/client-document-fetch.ts';
import { startHttpsServer, type HttpsServer } from '../helpers/https-server.ts';
import {
  authorizeUrl,
  CookieJar,
  MemoryOAuthClient,
  pkce,
  runAuthorization,
  seedSignedInAccount,
  shownError,
} from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let documents: HttpsServer;
let stack: Stack;
let base: string;
let resource: string;
let cookie: string;
let identityId: string;
/** Where the chat client would receive the answer; never followed, runAuthorization stops at the redirect. */
const redirectUri = 'http://127.0.0.1:9/callback';

/** The authorization server's fetch in this file: this run's certificate trusted for the document server only. */
function trustingDocumentServer(server: HttpsServer): typeof fetch {
  const agent = new Agent({ connect: { ca: server.ca } });
  const serviceFetch = createClientDocumentFetch();
  return async function fetchClientDocument(input, init) {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== server.origin) return serviceFetch(input, init);
    return (await undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as Response;
  } as typeof fetch;
}

/** A public client's document, as a chat client would publish it at `clientId`. */
const metadataDocument = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Metadata Chat',
  redirect_uris: [redirectUri],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
});

beforeAll(async () => {
  documents = await startHttpsServer();
  stack = await startStack({}, { worker: false, originFromPort: true, oauthFetch: trustingDocumentServer(documents) });
  base = stack.base;
  resource = `${base}/mcp/participate`;
  ({ cookie, identityId } = await seedSignedInAccount(stack.pool, 'metadata-person'));
});
afterAll(async () => {
  await stack?.close();
  await documents?.close();
});

const count = async (sql: string) => Number((await stack.pool.query(sql)).rows[0].n);
/** What a refused request must leave alone: clients, grants, tokens and connections. */
const stored = async () => ({
  clients: await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Client'`),
  grants: await count(`SELECT count(*) AS n FROM oauth_records WHERE model = 'Grant'`),
  tokens: await count(
    `SELECT count(*) AS n FROM oauth_records WHERE model IN ('AccessToken', 'RefreshToken', 'AuthorizationCode')`,
  ),
  connections: await count('SELECT count(*) AS n FROM oauth_connections'),
});

async function connectedClient(auth: MemoryOAuthClient): Promise<Client> {
  const client = new Client({ name: 'metadata-chat', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth }));
  return client;
}

describe('a client identified by its metadata document URL', () => {
  it('connects through the MCP SDK with no registration, and whoami names the client from its document', async () => {
    const clientId = `${documents.origin}/clients/metadata-chat.json`;
    documents.serve('/clients/metadata-chat.json', metadataDocument(clientId));
    const before = await stored();

    // The SDK reads the server's metadata, sees client_id_metadata_document_supported and uses the URL as client_id.
    const auth = new MemoryOAuthClient(redirectUri, 'Metadata Chat', clientId);
    expect(await connectedClient(auth).catch((error: unknown) => error)).toBeInstanceOf(UnauthorizedError);
    const url = auth.authorizationUrl!;
    expect(url.searchParams.get('client_id')).toBe(clientId);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(resource);

    // The person, signed in, approves on the consent page, which names the client from its document.
    const jar = new CookieJar(cookie);
    const interaction = new URL((await jar.fetch(url.toString())).headers.get('location')!, base).toString();
    const consent = await jar.fetch(interaction);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toMatch(/id="client-name"[^>]*>Metadata Chat</);
    const { location } = await runAuthorization(base, jar, interaction);
    expect(location?.origin + location!.pathname).toBe(redirectUri);
    const code = location!.searchParams.get('code');
    expect(code).toBeTruthy();

    // The SDK exchanges the code with its verifier, then calls whoami as the account.
    await new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth }).finishAuth(code!);
    expect(auth.saved?.access_token).toBeTruthy();
    expect(auth.saved?.refresh_token).toBeTruthy();
    const client = await connectedClient(auth);
    const whoami = (await client.callTool({ name: 'whoami', arguments: {} })) as {
      structuredContent?: Record<string, any>;
      isError?: boolean;
    };
    expect(whoami.isError).toBeFalsy();
    expect(whoami.structuredContent).toMatchObject({
      authenticated: true,
      identity: { id: identityId, handle: 'metadata-person' },
      connection: {
        client_id: clientId,
        client_name: 'Metadata Chat',
        scopes: expect.arrayContaining(['knowledge', 'post']),
      },
      next_action: 'verify_oauth_connection',
    });
    await client.close();

    // The server fetched the document over TLS, and stored no client: the document stays the client's description.
    expect(documents.requested).toContain('/clients/metadata-chat.json');
    const after = await stored();
    expect(after.clients).toBe(before.clients);
    expect(after.connections).toBe(before.connections + 1);
  });
});

/** A document client's authorization request by the signed-in person in `jar`, as far as its consent page's URL. */
async function consentPageUrl(clientId: string, name: string, jar: CookieJar): Promise<string> {
  const auth = new MemoryOAuthClient(redirectUri, name, clientId);
  expect(await connectedClient(auth).catch((error: unknown) => error)).toBeInstanceOf(UnauthorizedError);
  return new URL((await jar.fetch(auth.authorizationUrl!.toString())).headers.get('location')!, base).toString();
}

describe('a client name is contribution text', () => {
  it('shows and stores a name carrying a secret shape with the marker in its place', async () => {
    const clientId = `${documents.origin}/clients/leaky-chat.json`;
    const token = ['gh', 'p_', 'Lk9', 'q'.repeat(30), 'Z3w'].join('');
    documents.serve('/clients/leaky-chat.json', { ...metadataDocument(clientId), client_name: `Leaky Chat ${token}` });
    const jar = new CookieJar(cookie);
    const interaction = await consentPageUrl(clientId, 'Leaky Chat', jar);
    const page = await (await jar.fetch(interaction)).text();
    expect(page).toMatch(/id="client-name"[^>]*>Leaky Chat &lt;redacted:github-token&gt;</);
    expect(page).not.toContain(token);
    await runAuthorization(base, jar, interaction);
    const names = (await stack.pool.query('SELECT client_name FROM oauth_connections WHERE client_id = $1', [clientId]))
      .rows;
    expect(names).toEqual([{ client_name: 'Leaky Chat <redacted:github-token>' }]);
  });
});

describe('a client name the database cannot store', () => {
  it('connects a document client whose name holds a NUL, storing the replacement character, and no stray grant', async () => {
    const clientId = `${documents.origin}/clients/nul-chat.json`;
    documents.serve('/clients/nul-chat.json', { ...metadataDocument(clientId), client_name: 'Nul\u0000Chat' });
    const jar = new CookieJar(cookie);
    const interaction = await consentPageUrl(clientId, 'Nul Chat', jar);
    const page = await jar.fetch(interaction);
    expect(page.status).toBe(200);
    await page.text();
    await runAuthorization(base, jar, interaction);
    const connections = (
      await stack.pool.query('SELECT grant_id, client_name FROM oauth_connections WHERE client_id = $1', [clientId])
    ).rows;
    expect(connections.map((row) => row.client_name)).toEqual(['Nul\uFFFDChat']);
    const grants = await stack.pool.query(
      `SELECT count(*)::int AS n FROM oauth_records WHERE model = 'Grant' AND payload->>'clientId' = $1`,
      [clientId],
    );
    expect(grants.rows[0].n).toBe(1);
  });
});

describe('a client name the text rule refuses', () => {
  it('shows and stores a bidi override or a control as the replacement character, so it cannot reverse the consent text', async () => {
    const clientId = `${documents.origin}/clients/rtl-chat.json`;
    documents.serve('/clients/rtl-chat.json', {
      ...metadataDocument(clientId),
      client_name: 'Claude\u202e Desktop\u001b[2J',
    });
    const jar = new CookieJar(cookie);
    const interaction = await consentPageUrl(clientId, 'RTL Chat', jar);
    const page = await (await jar.fetch(interaction)).text();
    expect(page).toMatch(/id="client-name"[^>]*>Claude\uFFFD Desktop\uFFFD\[2J</);
    expect(page).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(page.includes('\u001b')).toBe(false);
    await runAuthorization(base, jar, interaction);
    const names = (await stack.pool.query('SELECT client_name FROM oauth_connections WHERE client_id = $1', [clientId]))
      .rows;
    expect(names).toEqual([{ client_name: 'Claude\uFFFD Desktop\uFFFD[2J' }]);
  });
});

describe('a metadata document client that is refused gets an OAuth error and changes nothing', () => {
  /** One authorization request by a signed-in person, as far as it goes on this origin. */
  async function authorizeOnce(clientId: string, redirect = redirectUri) {
    const before = await stored();
    const out = await runAuthorization(
      base,
      new CookieJar(cookie),
      authorizeUrl(base, {
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource,
        scope: 'post',
      }),
    );
    expect(await stored()).toEqual(before);
    // Refused before any redirect: the client's redirect_uri cannot be trusted, so the answer is a page of its own.
    expect(out.location).toBeUndefined();
    expect(out.response.status).toBe(400);
    return shownError(out.response);
  }

  it('refuses a document whose client_id is not its own URL', async () => {
    const clientId = `${documents.origin}/clients/impostor.json`;
    documents.serve('/clients/impostor.json', metadataDocument(`${documents.origin}/clients/metadata-chat.json`));
    expect(await authorizeOnce(clientId)).toEqual({
      error: 'invalid_client_metadata',
      description: 'client_id metadata document client_id does not match the expected value',
    });
    expect(documents.requested).toContain('/clients/impostor.json');
  });

  it('refuses a redirect_uri the document does not list, never redirecting there', async () => {
    const clientId = `${documents.origin}/clients/listed-redirect.json`;
    documents.serve('/clients/listed-redirect.json', metadataDocument(clientId));
    expect(await authorizeOnce(clientId, 'http://127.0.0.1:9/elsewhere')).toEqual({
      error: 'invalid_redirect_uri',
      description: 'redirect_uri did not match any of the client&#39;s registered redirect_uris',
    });
    expect(documents.requested).toContain('/clients/listed-redirect.json');
  });

  it('refuses an http client_id without fetching it', async () => {
    const clientId = `http://127.0.0.1:${new URL(documents.origin).port}/clients/plain-http.json`;
    documents.serve('/clients/plain-http.json', metadataDocument(clientId));
    expect(await authorizeOnce(clientId)).toEqual({ error: 'invalid_client', description: 'client is invalid' });
    expect(documents.requested).not.toContain('/clients/plain-http.json');
  });

  it('leaves every other document to the service fetch, which refuses a loopback address', async () => {
    // The same server under another origin (localhost, not 127.0.0.1): the test's trust does not reach it.
    const clientId = `https://localhost:${new URL(documents.origin).port}/clients/other-origin.json`;
    documents.serve('/clients/other-origin.json', metadataDocument(clientId));
    expect(await authorizeOnce(clientId)).toEqual({
      error: 'invalid_client',
      description: 'client_id metadata document fetch failed',
    });
    expect(documents.requested).not.toContain('/clients/other-origin.json');
  });
});
