import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_HELP } from '../../site/lib/help/authentication.ts';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
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
    expect(await page.getAttribute('link[rel="alternate"][type="application/json"]', 'href')).toBe('/agent-help/authentication.json');
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.console).toEqual([]);
  });

  it.each([
    ['/account/signin', 'Sign in'],
    ['/account', 'Chat connections'],
    ['/docs/chat', 'Connect a chat client'],
  ])('show %s honestly: what exists, what does not, and where help is', async (path, heading) => {
    const watched = await browser.open(stack.base + path);
    const { page } = watched;
    expect(await page.textContent('h1')).toBe(heading);
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('connection_required');
    expect(await page.locator('main a[href="/join"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main a[href^="/agent-help/authentication"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main form, main input').count()).toBe(0);
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
