/**
 * The whole path a person and a chat client take, with real parts: the
 * official MCP SDK client with its OAuth support (an OAuthClientProvider on
 * the Streamable HTTP transport) against the service, and real Chromium
 * with a virtual WebAuthn authenticator (DevTools protocol, through
 * playwright-core) for the passkey sign-up, sign-in and consent.
 *
 * The service's public origin is http://localhost:<port>: WebAuthn needs a
 * domain (not an IP address) in a secure context, which localhost is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.ts';
import { MemoryOAuthClient } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;
let base: string;
/** Where the chat client receives the authorization answer: a real listener, as a desktop client has. */
let callback: Server;
let redirectUrl: string;
const codes: string[] = [];

beforeAll(async () => {
  stack = await startStack({ ADMISSION_RATE_LIMIT: '1000' });
  base = `http://localhost:${stack.api.port}`;
  stack.config.PUBLIC_ORIGIN = base;
  callback = createServer((req, res) => {
    const code = new URL(req.url ?? '/', 'http://localhost').searchParams.get('code');
    if (code) codes.push(code);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await stack?.close();
});

const mcpUrl = () => new URL(`${base}/mcp/participate`);

async function connectedClient(auth: MemoryOAuthClient): Promise<Client> {
  const client = new Client({ name: 'example-chat', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }));
  return client;
}

async function withAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

async function expectCleanPage(watched: WatchedPage) {
  expect(await watched.cspViolations()).toEqual([]);
  expect(watched.errors).toEqual([]);
}

type Structured = { structuredContent?: Record<string, any>; isError?: boolean };

describe('connecting a chat client', () => {
  it('runs sign-up with a passkey, consent, whoami, a write, revocation on /account, and refuses the next call', async () => {
    const auth = new MemoryOAuthClient(redirectUrl, 'Example Chat');
    // 1. The client connects with no token: the 401 starts the OAuth flow and asks for the browser.
    const first = await connectedClient(auth).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(UnauthorizedError);
    expect(auth.info?.client_id).toBeTruthy();
    const url = auth.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${base}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${base}/mcp/participate`);

    // 2. The person: not signed in, so the interaction sends them to sign in; they create an account with a passkey.
    const watched = await browser.open('about:blank');
    const { page } = watched;
    await withAuthenticator(page);
    await page.goto(url.toString());
    await page.waitForURL(/\/account\/signin\?return_to=/);
    await page.locator('#passkey-signup').waitFor({ state: 'visible' });
    await page.fill('#signup-handle', 'chat-person');
    await page.click('#signup-form button[type="submit"]');

    // 3. Back on the interaction: the consent page names the client and every scope asked for, all checked.
    await page.waitForURL(/\/oauth\/interaction\//);
    expect(await page.textContent('#client-name')).toBe('Example Chat');
    expect(await page.textContent('#consent-handle')).toBe('chat-person');
    expect(await page.textContent('#redirect-uri')).toBe(redirectUrl);
    const offered = await page.$$eval('input[name="scope"]', (boxes) =>
      boxes.map((b) => (b as HTMLInputElement).value),
    );
    expect(offered).toEqual([
      'post',
      'reply',
      'knowledge',
      'feedback',
      'edit_own',
      'report_failure',
      'report_outdated',
      'add_evidence',
    ]);
    // The person narrows it: no discussions.
    await page.uncheck('input[name="scope"][value="post"]');
    await page.click('#approve-form button[type="submit"]');
    await page.waitForURL((u) => u.toString().startsWith(redirectUrl));
    await expectCleanPage(watched);
    expect(codes).toHaveLength(1);

    // 4. The client finishes: code + verifier for tokens, then reconnects and checks who it is.
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }).finishAuth(codes[0]!);
    expect(auth.saved?.access_token).toBeTruthy();
    const client = await connectedClient(auth);
    const whoami = (await client.callTool({ name: 'whoami', arguments: {} })) as Structured;
    expect(whoami.isError).toBeFalsy();
    expect(whoami.structuredContent).toMatchObject({
      authenticated: true,
      identity: { kind: 'pseudonymous', handle: 'chat-person' },
      connection: {
        client_name: 'Example Chat',
        scopes: ['reply', 'knowledge', 'feedback', 'edit_own', 'report_failure', 'report_outdated', 'add_evidence'],
      },
      next_action: 'verify_oauth_connection',
    });
    const identityId = whoami.structuredContent!.identity.id as string;

    // 5. A write through the tool protocol, committed as the account's identity.
    const created = (await client.callTool({
      name: 'create_problem',
      arguments: {
        idempotency_key: 'example-chat:first-problem',
        title: 'Written from a chat',
        body: 'Through OAuth.',
        product: 'oauth-test',
      },
    })) as Structured;
    expect(created.isError).toBeFalsy();
    const problemId = created.structuredContent!.resource.id as string;
    const author = await stack.pool.query('SELECT author_id FROM problems WHERE id = $1', [problemId]);
    expect(author.rows[0].author_id).toBe(identityId);

    // 6. /account lists the connection; revoking it there ends it.
    await page.goto(`${base}/account`);
    const row = page.locator('#connections tbody tr');
    await expect(row.count()).resolves.toBe(1);
    expect(await row.locator('[data-field="client"]').textContent()).toBe('Example Chat');
    expect(await row.locator('[data-field="scopes"]').textContent()).toContain('knowledge');
    expect(await row.locator('[data-field="last-used"]').textContent()).not.toBe('never');
    await row.locator('button[type="submit"]').click();
    await page.waitForURL(`${base}/account?done=revoked`);
    expect(await page.isVisible('#no-connections')).toBe(true);
    await expectCleanPage(watched);

    // 7. The next call is refused, and the client is told to authorize again.
    const refused = await client.callTool({ name: 'whoami', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    const raw = await fetch(mcpUrl(), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${auth.saved!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    await page.close();
  });

  it('signs out, then signs in again with the same passkey', async () => {
    const watched = await browser.open('about:blank');
    const { page } = watched;
    await withAuthenticator(page);
    await page.goto(`${base}/account/signin`);
    await page.fill('#signup-handle', 'returning-person');
    await page.click('#signup-form button[type="submit"]');
    await page.waitForURL(`${base}/account`, { timeout: 5000 }).catch(async () => {
      throw new Error(
        `${page.url()} ${await page.textContent('main')} ${watched.console.join('|')} ${watched.errors.join('|')}`,
      );
    });
    expect(await page.textContent('#account-handle')).toBe('returning-person');

    const session = (await page.context().cookies(base)).find((c) => c.name === 'ak_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

    await page.click('#signout-form button[type="submit"]');
    await page.waitForURL(`${base}/account/signin`);
    await page.goto(`${base}/account`);
    await page.waitForURL(/\/account\/signin\?return_to=%2Faccount/);

    await page.click('#signin-form button[type="submit"]');
    await page.waitForURL(`${base}/account`);
    expect(await page.textContent('#account-handle')).toBe('returning-person');
    await expectCleanPage(watched);
    await page.close();
  });
});
