/**
 * The part of a client address that names one client for admission groups:
 * an IPv4 address, or the leading /64 of an IPv6 address (one host or
 * household is usually given a whole /64, so its addresses are one client).
 * IPv4-mapped IPv6 addresses count as their IPv4 address. ipaddr.js parses
 * every textual form (compressed, zone ids, mapped), which a regex would not.
 * A key given again is its own key, so keying twice changes nothing.
 */
import ipaddr from 'ipaddr.js';
import { TRUST_RULES } from './rules.ts';

const KEYED = /^(ipv4|ipv6|other):/;

export function clientAddressKey(address: string): string {
  if (KEYED.test(address)) return address;
  const bare = address.replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return `other:${address}`;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return `ipv4:${parsed.toString()}`;
  const bytes = parsed.toByteArray().slice(0, TRUST_RULES.ipv6PrefixBits / 8);
  return `ipv6:${Buffer.from(bytes).toString('hex')}/${TRUST_RULES.ipv6PrefixBits}`;
}
