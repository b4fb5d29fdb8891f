/**
 * Hole 5: with TRUST_PROXY=true the leftmost X-Forwarded-For entry was the
 * client, so behind a proxy that appends, a client chose its own address
 * (60/60 spoofed admissions passed). Now TRUSTED_PROXY_HOPS says how many
 * proxies append, and the address is taken that many hops from the right.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf as addressOfPeer, clientAddress } from '../../api/limits/rate-limit.ts';
import { credentialHash } from '../../core/hash.ts';
import { newSecret } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

/** The address clientAddress picks for a request from `peer` with this header. */
async function addressOf(hops: number, forwardedFor: string | null, peer = '10.0.0.1'): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientAddress(c, hops)));
  const headers = forwardedFor === null ? undefined : { 'x-forwarded-for': forwardedFor };
  const res = await app.request('/', { headers }, { incoming: { socket: { remoteAddress: peer } } });
  return res.text();
}

describe('the client address behind trusted proxies', () => {
  it('believes no header with no trusted hops', async () => {
    expect(await addressOf(0, '203.0.113.7')).toBe('ipv4:10.0.0.1');
  });

  it('takes the entry that many hops from the right, whatever the client put on the left', async () => {
    // One appending proxy (nginx with $proxy_add_x_forwarded_for): it adds the peer it saw.
    expect(await addressOf(1, '198.51.100.66, 203.0.113.7')).toBe('ipv4:203.0.113.7');
    expect(await addressOf(1, '203.0.113.7')).toBe('ipv4:203.0.113.7');
    // A CDN, then a load balancer: two appended entries.
    expect(await addressOf(2, '198.51.100.66, 203.0.113.7, 192.0.2.10')).toBe('ipv4:203.0.113.7');
    // Fewer entries than hops: the leftmost is the best known.
    expect(await addressOf(3, '203.0.113.7')).toBe('ipv4:203.0.113.7');
    expect(await addressOf(1, null)).toBe('ipv4:10.0.0.1');
  });
});

describe('the client key every limit counts under', () => {
  it('is one key for every address of an IPv6 /64, and an IPv4-mapped address counts as its IPv4 address', async () => {
    const key = await addressOf(1, '2001:db8:7:8:1::1');
    expect(key).toBe('ipv6:20010db800070008/64');
    for (const other of ['2001:db8:7:8:ffff:ffff:ffff:ffff', '2001:0db8:0007:0008::9%eth0'])
      expect(await addressOf(1, other)).toBe(key);
    expect(await addressOf(1, '2001:db8:7:9::1')).not.toBe(key);
    expect(await addressOf(1, '::ffff:203.0.113.7')).toBe('ipv4:203.0.113.7');
    // The pre-router read path keys by the same function.
    expect(addressOfPeer('2001:db8:7:8::42', undefined, 0)).toBe(key);
  });
});

describe('per-address limits behind one appending proxy', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(
      { TRUSTED_PROXY_HOPS: '1', ADMISSION_RATE_LIMIT: '3', ADMISSION_RATE_WINDOW_SECONDS: '86400' },
      { worker: false },
    );
  });
  afterAll(() => stack.close());

  it('cannot be escaped by a client that invents a new leftmost X-Forwarded-For entry each time', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      // What the proxy forwards: the client's invented entry, then the address the proxy saw.
      const res = await fetch(`${stack.base}/api/public/admission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7` },
        body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
  });

  it('still keeps distinct clients of the proxy apart', async () => {
    const res = await fetch(`${stack.base}/api/public/admission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.8' },
      body: JSON.stringify({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
    });
    expect(res.status).toBe(201);
  });
});
