/**
 * Client ID Metadata Documents: the client_id is an https URL the sender
 * of an authorization request chooses, so the service's fetch must never
 * open a connection to loopback, whatever the URL calls it. Replayed: a
 * listener on 127.0.0.1 counts the TCP connections it receives while
 * authorization requests name it as `127.1`, `2130706433`,
 * `[::ffff:127.0.0.1]` and `localhost` (a hosts-file name). The service
 * runs with its own fetch, as deployed.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDocumentFetch, isPublicAddress } from '../../api/oauth/client-document-fetch.ts';
import { authorizeUrl, CookieJar, pkce, seedSignedInAccount, shownError } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let listener: Server;
let port: number;
let connections = 0;
let cookie: string;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
  stack = await startStack({}, { worker: false, originFromPort: true });
  ({ cookie } = await seedSignedInAccount(stack.pool, 'document-person'));
});
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('fetching a client ID metadata document', () => {
  it('opens no connection to loopback, however the client_id names it', async () => {
    const hosts = ['127.1', '2130706433', '[::ffff:127.0.0.1]', 'localhost', '0x7f.0.0.1'];
    for (const host of hosts) {
      const clientId = `https://${host}:${port}/clients/${encodeURIComponent(host)}.json`;
      const res = await new CookieJar(cookie).fetch(
        authorizeUrl(stack.base, {
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:9/callback',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource: `${stack.base}/mcp/participate`,
          scope: 'post',
        }),
      );
      expect(res.status, host).toBe(400);
      expect(res.headers.get('location'), host).toBeNull();
      expect((await shownError(res)).error, host).toBe('invalid_client');
    }
    expect(connections).toBe(0);
  });

  it('refuses a name that resolves to any address that is not public, before connecting', async () => {
    const fetchDocument = createClientDocumentFetch({
      resolve: async (host) =>
        host === 'mixed.example'
          ? [
              { address: '93.184.215.14', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ]
          : [{ address: '::1', family: 6 }],
    });
    for (const host of ['mixed.example', 'only-loopback.example']) {
      await expect(fetchDocument(`https://${host}:${port}/client.json`)).rejects.toThrow();
    }
    expect(connections).toBe(0);
  });

  it('counts only public unicast addresses as public', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '0.0.0.0',
      '::',
      '::7f00:1',
      '::a00:1',
      '4000::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['93.184.215.14', '2606:4700:4700::1111', '::ffff:93.184.215.14']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});
