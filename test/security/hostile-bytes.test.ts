/**
 * The NUL character (U+0000, stored by PostgreSQL in neither text nor
 * jsonb) anywhere a request carries input, the path, the query, a cookie,
 * a JSON or form body, an OAuth parameter, is refused at the edge with 400
 * in the Error shape: never a 500, never a stack in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../helpers/client.ts';
import { registerClient, seedSignedInAccount, pkce, type RegisteredClient } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let client: RegisteredClient;
let cookie: string;
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  stack = await startStack({}, { worker: false, captureLogs: true });
  client = await registerClient(stack.base, REDIRECT);
  ({ cookie } = await seedSignedInAccount(stack.pool, 'nul-tester'));
});
afterAll(() => stack.close());

async function expectRefused(res: Response) {
  const text = await res.text();
  expect({ status: res.status, text: text.slice(0, 300) }).toMatchObject({ status: 400 });
  expect(errorOf(JSON.parse(text))).toMatchObject({ code: 'invalid_arguments', reason: 'nul_character' });
}

function authorize(extra: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    scope: 'read',
    state: 'st-1',
    ...extra,
  });
  return `${stack.base}/oauth/authorize?${query}`;
}

describe('a NUL character', () => {
  it.each(['/problems', '/solutions', '/discussions', '/api/problems', '/api/solutions', '/api/discussions'])(
    'in the product of the list %s is refused with 400',
    async (list) => {
      await expectRefused(await fetch(`${stack.base}${list}?product=%00`));
    },
  );

  it.each(['state', 'login_hint', 'ui_locales'])(
    'in the OAuth authorize parameter %s is refused with 400, no credential needed',
    async (name) => {
      await expectRefused(await fetch(authorize({ [name]: 'a\u0000b' }), { redirect: 'manual' }));
    },
  );

  it.each([
    ['client_name', { client_name: 'Chat\u0000Client', redirect_uris: [REDIRECT] }],
    ['redirect_uris', { client_name: 'Chat Client', redirect_uris: [`${REDIRECT}\u0000`] }],
  ])('in the client registration field %s is refused with 400', async (_, fields) => {
    await expectRefused(
      await fetch(`${stack.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...fields,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      }),
    );
  });

  it('in an OAuth token request form is refused with 400', async () => {
    await expectRefused(
      await fetch(`${stack.base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x\u0000',
          client_id: client.client_id,
          redirect_uri: REDIRECT,
          code_verifier: 'v',
        }).toString(),
      }),
    );
  });

  it('in the path of a connection to revoke is refused with 400', async () => {
    await expectRefused(
      await fetch(`${stack.base}/account/connections/%00/revoke`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: stack.base },
        body: 'csrf=x',
        redirect: 'manual',
      }),
    );
  });

  it('in a form field of an account page is refused with 400', async () => {
    await expectRefused(
      await fetch(`${stack.base}/account/signout`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: stack.base },
        body: 'csrf=%00',
        redirect: 'manual',
      }),
    );
  });

  it('in a cookie is refused with 400', async () => {
    await expectRefused(
      await fetch(`${stack.base}/account`, { headers: { cookie: 'ak_session=%00' }, redirect: 'manual' }),
    );
  });

  // A malformed escape elsewhere made a decoder of the whole text give up, while the router decodes each
  // run of escapes alone and handed the route the NUL.
  it.each([
    ['POST', '/account/connections/abc%00x%E0/revoke'],
    ['PATCH', '/api/problems/prb_%00x%E0'],
    ['GET', '/problems/prb_x%E0%00'],
    ['GET', '/api/v1/problems/prb_%e0%00'],
  ])('in a path that also holds a malformed escape (%s %s) is refused with 400', async (method, path) => {
    await expectRefused(
      await fetch(`${stack.base}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: stack.base },
        ...(method === 'GET' ? {} : { body: 'csrf=x' }),
        redirect: 'manual',
      }),
    );
  });

  it('in a cookie that also holds a malformed escape is refused with 400', async () => {
    await expectRefused(
      await fetch(`${stack.base}/account`, { headers: { cookie: 'ak_session=%00%E0' }, redirect: 'manual' }),
    );
  });

  it('in the search query is refused with 400, as before', async () => {
    await expectRefused(await fetch(`${stack.base}/api/v1/search?q=%00`));
  });

  it('left no error and no stack in the log', () => {
    const errors = stack.logs.filter((line) => /"level":50|"level":"error"/.test(line));
    expect(errors).toEqual([]);
  });
});
