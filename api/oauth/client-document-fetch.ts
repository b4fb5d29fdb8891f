/**
 * How the authorization server fetches a Client ID Metadata Document: the
 * client_id is an https URL chosen by whoever sends the authorization
 * request, so the fetch must never reach this host's loopback, the private
 * network or any other address that is not public.
 *
 * The order is resolve, check, connect: a host name is resolved once, every
 * address it has must be public unicast, and the socket is opened to the
 * address that was checked (the connector's `lookup` answers it), so a name
 * cannot resolve to something else between the check and the connect. An
 * address literal is checked before any socket exists. ipaddr.js names the
 * range of every textual form (`127.1`, `2130706433` and `[::ffff:7f00:1]`
 * reach here as the URL parser normalised them, and IPv4-mapped addresses
 * are checked as their IPv4 address).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';

/** The IPv6 global unicast space: anything outside it (e.g. the deprecated IPv4-compatible `::7f00:1`) is not public. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Public unicast only: no loopback, private, link-local, carrier-grade NAT, NAT64, 6to4, Teredo or reserved range. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]);
}

class NotPublic extends Error {
  constructor(host: string) {
    super(`the client_id host ${host} does not resolve only to public addresses`);
  }
}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** A connector lookup that resolves, refuses unless every address is public, and answers the one it checked. */
function checkedLookup(resolve: Resolve): LookupFunction {
  return (host, options, callback) => {
    resolve(host)
      .then((addresses) => {
        if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) throw new NotPublic(host);
        const wanted = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0]!;
        if ((options as { all?: boolean }).all)
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [wanted]);
        else callback(null, wanted.address, wanted.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 0));
  };
}

export interface ClientDocumentFetchOptions {
  /** How host names are resolved (the system resolver, hosts file included, unless given). */
  resolve?: Resolve;
}

/** oidc-provider's `fetch` (its documented option): its own dispatcher is replaced by the checking one. */
export function createClientDocumentFetch(options: ClientDocumentFetchOptions = {}): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(options.resolve ?? systemResolve) } });
  return async function fetchClientDocument(input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address literal never reaches the lookup: it is checked here, before any socket.
    if (ipaddr.isValid(host) && !isPublicAddress(host)) throw new NotPublic(host);
    const { dispatcher: _libraryDispatcher, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
    return (await undiciFetch(url, { ...(rest as object), dispatcher })) as unknown as Response;
  } as typeof fetch;
}
