import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.ts';
import { admit, newSecret } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ ADMISSION_RATE_LIMIT: '1000' }, { worker: false, originFromPort: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const count = async (table: string) => Number((await stack.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count);

async function openJoin(): Promise<WatchedPage & { requests: Request[] }> {
  const watched = await browser.open(`${stack.base}/join`);
  const requests: Request[] = [];
  watched.page.on('request', (request) => requests.push(request));
  await watched.page.locator('#create-form').waitFor({ state: 'visible' });
  return { ...watched, requests };
}

async function expectCleanConsole(watched: WatchedPage) {
  expect(await watched.cspViolations()).toEqual([]);
  expect(watched.errors).toEqual([]);
  expect(watched.console).toEqual([]);
}

describe('/join', () => {
  it('creates a credential in the browser, registers only its hash, shows the secret once and verifies it', async () => {
    const watched = await openJoin();
    const { page } = watched;
    await page.fill('#handle', 'browser-agent');
    await page.click('#create-form button[type="submit"]');
    await page.locator('#whoami-result').waitFor({ state: 'visible' });

    const secret = (await page.textContent('#secret-value')) ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(page.locator('#secret').textContent()).resolves.toContain('Copy it now');
    const identityId = await page.textContent('#whoami-result [data-field="identity"]');
    expect(identityId).toMatch(/^agt_[0-9a-z]{26}$/);
    expect(await page.textContent('#whoami-result [data-field="handle"]')).toBe('browser-agent');
    expect(await page.textContent('#whoami-result [data-field="epoch"]')).toBe('1');
    expect(await page.isVisible('#manage')).toBe(true);

    // The identity exists, and the database holds the hash of the secret, never the secret.
    const rows = await stack.pool.query(
      `SELECT i.kind, i.handle, c.hash, row_to_json(c)::text AS credential FROM identities i JOIN credentials c ON c.identity_id = i.id WHERE i.id = $1`,
      [identityId],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ kind: 'pseudonymous', handle: 'browser-agent', hash: credentialHash(secret) });
    expect(rows.rows[0].credential).not.toContain(secret);

    // On the wire: admission carried only the hash; the secret went only in whoami's Authorization header.
    const admission = watched.requests.find((r) => r.url().endsWith('/api/public/admission'))!;
    expect(JSON.parse(admission.postData() ?? '{}')).toEqual({
      kind: 'pseudonymous',
      handle: 'browser-agent',
      credential_hash: credentialHash(secret),
    });
    // Same-origin: the browser sent our own Origin, which is what admission accepts.
    expect((await admission.allHeaders()).origin).toBe(stack.base);
    const whoami = watched.requests.find((r) => r.url().endsWith('/api/whoami'))!;
    expect((await whoami.allHeaders()).authorization).toBe(`Bearer ${secret}`);
    for (const request of watched.requests) {
      expect(request.url()).not.toContain(secret);
      expect(request.postData() ?? '').not.toContain(secret);
    }
    expect(page.url()).toBe(`${stack.base}/join`);

    // Shown once: on the page until the user hides it, then nowhere; not stored without opting in.
    expect((await page.content()).split(secret)).toHaveLength(2);
    await page.click('#secret-saved');
    expect(await page.content()).not.toContain(secret);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).toBe('{}');
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await expectCleanConsole(watched);
  });

  it('verifies a credential made elsewhere when its secret is pasted', async () => {
    const agent = await admit(stack.base, 'guest');
    const watched = await openJoin();
    await watched.page.fill('#secret-input', agent.secret);
    await watched.page.click('#verify-form button[type="submit"]');
    await watched.page.locator('#whoami-result').waitFor({ state: 'visible' });
    expect(await watched.page.textContent('#whoami-result [data-field="identity"]')).toBe(agent.id);
    expect(await watched.page.textContent('#whoami-result [data-field="kind"]')).toBe('guest');
    expect(await watched.page.inputValue('#secret-input')).toBe('');
    expect(await watched.page.content()).not.toContain(agent.secret);
    await expectCleanConsole(watched);
  });

  it("shows the service's 401 and recovery for a secret it did not issue, and creates nothing", async () => {
    const identities = await count('identities');
    const watched = await openJoin();
    await watched.page.fill('#secret-input', newSecret());
    await watched.page.click('#verify-form button[type="submit"]');
    const error = watched.page.locator('#error');
    await error.waitFor({ state: 'visible' });
    expect(await error.locator('[data-field="status"]').textContent()).toBe('401');
    expect(await error.locator('[data-field="code"]').textContent()).toBe('invalid_or_revoked_credential');
    expect(await error.locator('[data-field="reason"]').textContent()).toBe('invalid');
    expect(await error.locator('[data-field="next-action"]').textContent()).toBe('authentication_required');
    expect(await error.locator('[data-field="request-id"]').textContent()).toMatch(/^req_/);
    expect(await watched.page.isVisible('#whoami-result')).toBe(false);
    expect(await watched.page.isVisible('#manage')).toBe(false);
    expect(await count('identities')).toBe(identities);
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.errors).toEqual([]);
    // The only console line is Chromium's own report of the 401 response.
    expect(watched.console.filter((line) => !/status of 401/.test(line))).toEqual([]);
  });
});
