/**
 * The account page's `done` notice comes from a link anyone can send: a
 * name the page does not know shows no notice, and never fails the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSignedInAccount } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let cookie: string;

beforeAll(async () => {
  stack = await startStack({}, { worker: false, captureLogs: true });
  ({ cookie } = await seedSignedInAccount(stack.pool, 'notice-reader'));
});
afterAll(() => stack.close());

const account = (done: string) =>
  fetch(`${stack.base}/account?done=${encodeURIComponent(done)}`, { headers: { cookie }, redirect: 'manual' });

describe('the account page’s notice', () => {
  it('shows the notice it knows', async () => {
    const res = await account('revoked');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('The connection was revoked.');
  });

  it.each(['valueOf', 'toString', 'hasOwnProperty', '__proto__', 'constructor', 'toLocaleString', 'nothing'])(
    'shows none for done=%s, and the page still answers 200',
    async (done) => {
      const res = await account(done);
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html).toContain('notice-reader');
      expect(html).not.toMatch(/\[object |function |native code/);
    },
  );

  it('left no error in the log', () => {
    expect(stack.logs.filter((line) => /"level":50|"level":"error"/.test(line))).toEqual([]);
  });
});
