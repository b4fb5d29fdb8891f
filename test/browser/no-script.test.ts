import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_HELP } from '../../site/lib/help/authentication.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { connect, mcpPost, seedSignedInAccount, toolCall } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({}, { worker: false, originFromPort: true });
  browser = await launchBrowser({ javaScriptEnabled: false });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('pages with JavaScript disabled', () => {
  it('show the whole authentication help', async () => {
    const watched = await browser.open(`${stack.base}/agent-help/authentication`);
    const { page } = watched;
    expect(await page.textContent('h1')).toBe(AUTHENTICATION_HELP.title);
    const text = (await page.textContent('main')) ?? '';
    for (const step of AUTHENTICATION_HELP.steps) {
      expect(await page.isVisible(`#${step.id}`), step.id).toBe(true);
      expect(text).toContain(`${step.request.method} ${step.request.path}`);
    }
    for (const rule of AUTHENTICATION_HELP.rules) expect(text).toContain(rule);
    expect(await page.getAttribute('link[rel="alternate"][type="application/json"]', 'href')).toBe(
      '/agent-help/authentication.json',
    );
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.console).toEqual([]);
  });

  it('show /docs/chat: the URL to paste, what a person sees, how to verify and revoke, and how accounts relate to identities', async () => {
    const watched = await browser.open(`${stack.base}/docs/chat`);
    const { page } = watched;
    expect(await page.textContent('h1')).toBe('Connect a chat client');
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('/mcp/participate');
    for (const id of ['url', 'what-you-see', 'verify', 'revoke', 'accounts-and-identities'])
      expect(await page.isVisible(`#${id}`), id).toBe(true);
    expect(text).toContain('whoami');
    expect(await page.locator('main a[href="/account"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main a[href="/account/signin"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main a[href="/join"]').count()).toBeGreaterThan(0);
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.console).toEqual([]);
  });

  it('explain on /account/signin that the passkey ceremony needs JavaScript, and offer nothing that cannot work', async () => {
    const watched = await browser.open(`${stack.base}/account/signin`);
    const { page } = watched;
    expect(await page.textContent('h1')).toBe('Sign in or create an account');
    expect(await page.textContent('main')).toContain('needs JavaScript');
    expect(await page.isVisible('#signin-form')).toBe(false);
    expect(await page.isVisible('#signup-form')).toBe(false);
    expect(await page.locator('main a[href="/join"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main a[href^="/agent-help/authentication"]').count()).toBeGreaterThan(0);
    expect(watched.console).toEqual([]);
  });

  it('send /account to sign-in when nobody is signed in', async () => {
    const watched = await browser.open(`${stack.base}/account`);
    expect(watched.page.url()).toBe(`${stack.base}/account/signin?return_to=%2Faccount`);
  });

  it('list connections on /account and revoke one with its form, then sign out, all without JavaScript', async () => {
    const { cookie } = await seedSignedInAccount(stack.pool, 'no-script-person');
    const { tokens } = await connect(stack.base, cookie);
    await browser.context.addCookies([
      { name: 'ak_session', value: cookie.split('=')[1]!, url: stack.base, httpOnly: true, sameSite: 'Lax' },
    ]);
    const watched = await browser.open(`${stack.base}/account`);
    const { page } = watched;
    expect(await page.textContent('#account-handle')).toBe('no-script-person');
    const row = page.locator('#connections tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.locator('[data-field="client"]').textContent()).toBe('Test Chat Client');
    expect(await row.locator('[data-field="last-used"]').textContent()).toBe('never');
    expect((await mcpPost(stack.base, tokens.access_token!, toolCall('whoami'))).status).toBe(200);
    await page.reload();
    expect(await row.locator('[data-field="last-used"]').textContent()).not.toBe('never');

    await row.locator('button[type="submit"]').click();
    await page.waitForURL(`${stack.base}/account?done=revoked`);
    expect(await page.textContent('#notice')).toContain('revoked');
    expect(await page.isVisible('#no-connections')).toBe(true);
    expect((await mcpPost(stack.base, tokens.access_token!, toolCall('whoami'))).status).toBe(401);
    expect(await watched.cspViolations()).toEqual([]);

    await page.click('#signout-form button[type="submit"]');
    await page.waitForURL(`${stack.base}/account/signin`);
    await page.goto(`${stack.base}/account`);
    expect(page.url()).toBe(`${stack.base}/account/signin?return_to=%2Faccount`);
    expect(watched.console).toEqual([]);
  });

  it('explain on /join and /search that they need JavaScript, and offer nothing to submit', async () => {
    const join = await browser.open(`${stack.base}/join`);
    expect(await join.page.isVisible('noscript, .notice')).toBe(true);
    expect(await join.page.textContent('main')).toContain('needs JavaScript');
    expect(await join.page.isVisible('#create-form')).toBe(false);
    expect(await join.page.isVisible('#verify-form')).toBe(false);
    const search = await browser.open(`${stack.base}/search`);
    expect(await search.page.textContent('main')).toContain('Search needs JavaScript');
  });
});
