/**
 * How candidates are ranked: one weighted sum of features computed per
 * candidate by the search statement (db/queries/search.ts), so every rule
 * lives here and each signal is one term:
 *
 * - `exact`: the share of the query's words that the longest of its exact
 *   keys matched by the record covers (1 when the whole normalized query
 *   equals the record's literal, title or one of their lines).
 * - `substring`: the record contains the whole normalized query.
 * - `coverage`: the share of the query's full-text terms the record holds.
 * - `title`: the share of those terms in the record's title (symptom
 *   queries: what a record is about is in its title).
 * - `signature`: discriminating raw tokens the normalizer erases, read from
 *   the raw query and the record's raw snippet: well-known service ports
 *   (5432 is PostgreSQL, 6379 Redis), the IPv6 against the IPv4 loopback,
 *   and hostnames of well-known services. Per kind of token: +1 when the
 *   record carries one the query carries, -1 when it carries only others.
 * - `prior`: outcome signals, log-damped, so they order near-equals and
 *   never lift a weaker match over a stronger one.
 * - `trust`: the record's decayed confidence (0..1), minus 1 when it is
 *   disputed (record_trust, core/trust/): it orders near-equals before the
 *   signals do (independent confirmations over a burst from one address),
 *   and a disputed record stays findable.
 * Ties go to the record changed last.
 */
import { WELL_KNOWN_HOSTS, WELL_KNOWN_PORTS } from './signature-tokens.ts';

export const RANKING_WEIGHTS = {
  exact: 6,
  substring: 4,
  coverage: 2,
  title: 1.5,
  signature: 2,
  prior: 0.1,
  trust: 1,
} as const;

export type RankingWeights = typeof RANKING_WEIGHTS;

/**
 * Regexes (PostgreSQL ARE, ASCII only) matched against a record's raw
 * snippet, one pair per kind of token the query carries: `hits[i]` matches
 * the query's own tokens of that kind, `known[i]` any token of the kind.
 */
export interface SignaturePatterns {
  hits: string[];
  known: string[];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PORT_IN_TEXT = /(?:(?<![0-9a-z])port[ =]?|:)([0-9]{2,5})(?![0-9])/gi;
const portPattern = (port: string) => `(?:port |:)${port}(?![0-9])`;
const IPV6_LOOPBACK = String.raw`(?:^|[^0-9a-f:])::1(?![0-9a-f])|\[::1\]`;
const IPV4_LOOPBACK = String.raw`127\.0\.0\.1`;

/**
 * The discriminating tokens of a raw query as patterns. Kinds are compared
 * only with themselves: a query naming port 5432 penalises a record naming
 * 6379, never one naming no port.
 */
export function signatureOf(rawQuery: string): SignaturePatterns {
  const out: SignaturePatterns = { hits: [], known: [] };
  const add = (hit: string, known: string) => {
    out.hits.push(hit);
    out.known.push(known);
  };
  const lower = rawQuery.toLowerCase();
  const ports = new Set<string>();
  for (const match of lower.matchAll(PORT_IN_TEXT)) if (WELL_KNOWN_PORTS.has(match[1]!)) ports.add(match[1]!);
  if (ports.size) add([...ports].map(portPattern).join('|'), [...WELL_KNOWN_PORTS].map(portPattern).join('|'));
  const v6 = new RegExp(IPV6_LOOPBACK).test(lower);
  const v4 = lower.includes('127.0.0.1');
  if (v6 !== v4) add(v6 ? IPV6_LOOPBACK : IPV4_LOOPBACK, `${IPV6_LOOPBACK}|${IPV4_LOOPBACK}`);
  const hosts = WELL_KNOWN_HOSTS.filter((host) => lower.includes(host));
  if (hosts.length) add(hosts.map(escapeRegex).join('|'), WELL_KNOWN_HOSTS.map(escapeRegex).join('|'));
  return out;
}

/** Words of a normalized text as exact keys count them. */
export function keyWords(key: string): number {
  return key.split(/[ \n]+/).filter((w) => w !== '').length;
}
