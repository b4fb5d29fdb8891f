/**
 * The part of a client address that names one client for admission groups:
 * an IPv4 address, or the leading /64 of an IPv6 address (one host or
 * household is usually given a whole /64, so its addresses are one client).
 * IPv4-mapped IPv6 addresses count as their IPv4 address. ipaddr.js parses
 * every textual form (compressed, zone ids, mapped), which a regex would not.
 * A key given again is its own key, so keying twice changes nothing.
 */
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { TRUST_RULES } from './rules.ts';

const KEYED = /^(ipv4|ipv6|other):/;

/** Every read keys its client; the same few addresses repeat, so their keys are remembered, not parsed per request. */
const KEYS = new LRUCache<string, string>({ max: 10_000 });

export function clientAddressKey(address: string): string {
  if (KEYED.test(address)) return address;
  let key = KEYS.get(address);
  if (key === undefined) {
    key = keyOf(address);
    KEYS.set(address, key);
  }
  return key;
}

function keyOf(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return `other:${address}`;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return `ipv4:${parsed.toString()}`;
  const bytes = parsed.toByteArray().slice(0, TRUST_RULES.ipv6PrefixBits / 8);
  return `ipv6:${Buffer.from(bytes).toString('hex')}/${TRUST_RULES.ipv6PrefixBits}`;
}
