import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { launchBrowser, type Browser, type WatchedPage } from '../helpers/browser.ts';
import { admit } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ ADMISSION_RATE_LIMIT: '1000' }, { originFromPort: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const whoami = (secret: string) =>
  fetch(`${stack.base}/api/whoami`, { headers: { authorization: `Bearer ${secret}` } });

/** /join with a credential made elsewhere pasted and verified: the manage section is shown. */
async function openWithCredential(): Promise<{ watched: WatchedPage; secret: string; id: string }> {
  const agent = await admit(stack.base);
  const watched = await browser.open(`${stack.base}/join`);
  await watched.page.locator('#verify-form').waitFor({ state: 'visible' });
  await watched.page.fill('#secret-input', agent.secret);
  await watched.page.click('#verify-form button[type="submit"]');
  await watched.page.locator('#manage').waitFor({ state: 'visible' });
  return { watched, secret: agent.secret, id: agent.id };
}

describe('/join manages a credential', () => {
  it('rotates: a new secret is made in the browser, shown once, and holds epoch 2 while the old one is revoked', async () => {
    const { watched, secret, id } = await openWithCredential();
    const { page } = watched;
    await page.click('#rotate');
    await page.waitForFunction(
      () => document.querySelector('#whoami-result [data-field="epoch"]')?.textContent === '2',
    );
    const next = (await page.textContent('#secret-value')) ?? '';
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next).not.toBe(secret);
    expect(await page.textContent('#whoami-result [data-field="identity"]')).toBe(id);

    expect((await whoami(secret)).status).toBe(401);
    const fresh = await (await whoami(next)).json();
    expect(fresh.credential).toMatchObject({ epoch: 2 });
    const stored = await stack.pool.query(
      'SELECT hash FROM credentials WHERE identity_id = $1 AND revoked_at IS NULL',
      [id],
    );
    expect(stored.rows).toEqual([{ hash: credentialHash(next) }]);
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.errors).toEqual([]);
  });

  it('revokes only after the user confirms, and the credential then answers 401 revoked', async () => {
    const { watched, secret } = await openWithCredential();
    const { page } = watched;
    expect(await page.isDisabled('#revoke')).toBe(true);
    await page.check('#revoke-confirm');
    await page.click('#revoke');
    await page.locator('#notice').waitFor({ state: 'visible' });
    expect(await page.textContent('#notice')).toContain('Revoked');
    expect(await page.isVisible('#manage')).toBe(false);
    const res = await whoami(secret);
    expect(res.status).toBe(401);
    expect((await res.json()).error.reason).toBe('revoked');
    expect(await watched.cspViolations()).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
