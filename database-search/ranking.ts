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
 *   queries: what a record is about is in its title); weighed less for
 *   pasted text (`weightsFor`).
 * - `signature`: discriminating raw tokens the normalizer erases, read from
 *   the raw query and the record's raw snippet (and title, for a symptom in
 *   words: `signatureReadsTitle`): ports (a well-known service
 *   port anywhere, 5432 is PostgreSQL and 6379 Redis; any port bound to an
 *   address, `127.0.0.1:8080`, `port 22732`), the IPv6 against the IPv4
 *   loopback, the IPv6 against the IPv4 any-address (`[::]:80`, `:::3000`
 *   against `0.0.0.0:80`), and hostnames of well-known services. Per kind of
 *   token: +1 when the record carries one the query carries, -1 when it
 *   carries only others of the kind (for ports: only well-known ones, or the
 *   query's own); for the two kinds of address only the -1.
 * - `prior`: outcome signals, log-damped, so they order near-equals and
 *   never lift a weaker match over a stronger one.
 * - `trust`: the record's decayed confidence (0..1), minus 1 when it is
 *   disputed (record_trust, core/trust/): it orders near-equals before the
 *   signals do (independent confirmations over a burst from one address),
 *   and a disputed record stays findable.
 * Ties go to the record changed last. A second stage (rerank.ts) then
 * reorders the first candidates by the whole literal and scores keyword
 * matches by BM25F (`TERM_WEIGHTING`).
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

/**
 * Mode auto, pasted text met only on a fragment of a line (fragment-matches.ts): the weight of a fragment
 * match's exact share when it is ranked among keyword matches, that of holding every term, so the
 * fragment lifts a record by as much as the query's terms can, not by the 6 that makes an exact match win.
 */
export const FRAGMENT_WEIGHT = 2;

export type RankingWeights = { readonly [K in keyof typeof RANKING_WEIGHTS]: number };

/**
 * The second stage's BM25F over keyword matches (rerank.ts). Records are
 * short (a title, a literal, a few sentences) and say their subject in
 * title, literal and body alike, so a term's repeats say little and its
 * count saturates early (`k1`), and a longer record is hardly less about
 * its subject (`b`, against the candidates' average length). A term in the
 * title counts `titleField` times one in the text: the title says what the
 * record is about.
 */
export const TERM_WEIGHTING = { k1: 0.6, b: 0.3, titleField: 2 } as const;

/** BM25's saturation of a term count `tf` under `TERM_WEIGHTING.k1`: what the second stage scores a count as. */
export function saturatedCount(tf: number): number {
  const { k1 } = TERM_WEIGHTING;
  return (tf * (k1 + 1)) / (k1 + tf);
}

/** Beyond this many words a query with any word of code is a pasted literal, not a symptom in words. */
export const SYMPTOM_MAX_WORDS = 12;

/** A word only code and log lines have: punctuation inside it (`ts2339:`, `<path>(60,22):`, `os.path.join()`), or letters and digits together. */
const CODE_WORD = /[:()[\]{}=_\\/]|[a-z][0-9]|[0-9][a-z]/;
const PLACEHOLDER = /^<[a-z]+>[,.]?$/;

/**
 * Whether a normalized query is pasted text (a literal or part of one) rather than a symptom in words:
 * more than one line, two words of code, or more than SYMPTOM_MAX_WORDS words with any word of code. A
 * long sentence of plain words (`everything works fine on localhost but when deployed redis fails`) is
 * a symptom however long: a pasted message of that length names something in code.
 */
export function isPasted(normalizedQuery: string): boolean {
  if (normalizedQuery.includes('\n')) return true;
  const words = normalizedQuery.split(' ').filter((word) => word !== '' && !PLACEHOLDER.test(word));
  const code = words.filter((word) => CODE_WORD.test(word)).length;
  if (keyWords(normalizedQuery) > SYMPTOM_MAX_WORDS) return code >= 1;
  return code >= 2;
}

/**
 * Whether a normalized query is a symptom in plain words: not pasted, and
 * no word of code or log text in it at all (`exited with code 137`, not
 * `connect econnrefused <ip>:<n> while warming the pool`). Such a query
 * meeting a record only on a fragment is a bag of words, not a cut paste.
 */
export function isPlainWords(normalizedQuery: string): boolean {
  if (isPasted(normalizedQuery)) return false;
  return normalizedQuery.split(' ').every((word) => word === '' || (!PLACEHOLDER.test(word) && !CODE_WORD.test(word)));
}

/** The title's weight for a pasted literal: its own text, not a title's wording, tells it apart. */
export const PASTED_TITLE_WEIGHT = 0.3;

/**
 * The weights for one normalized query. A symptom ("postgres connection
 * refused in docker") is about what a record's title says; a pasted literal
 * is matched by the record's text, and a title that happens to share its
 * common words (`error`, `property`, `exist`) must not lift a record over
 * the one holding the literal's own rare words.
 */
export function weightsFor(normalizedQuery: string): RankingWeights {
  return isPasted(normalizedQuery) ? { ...RANKING_WEIGHTS, title: PASTED_TITLE_WEIGHT } : RANKING_WEIGHTS;
}

/**
 * Whether the signature reads a record's title beside its literal: for a
 * symptom in words (not pasted), which names a port or host the way a
 * title does (`waitress serve port 80 address already in use` against the
 * record titled `waitress cannot bind port 80`, whose traceback names no
 * port). A pasted literal is compared with the literal a record holds, and
 * reading titles would cost each of its candidates a longer regex match.
 */
export function signatureReadsTitle(normalizedQuery: string): boolean {
  return !isPasted(normalizedQuery);
}

/**
 * Regexes (PostgreSQL ARE, ASCII only) matched against a record's raw
 * snippet, one pair per kind of token the query carries: `hits[i]` matches
 * the query's own tokens of that kind (+1), `known[i]` any token of the kind
 * (-1 when `hits[i]` did not match). A null `hits[i]` rewards nothing: the
 * kind only tells a record carrying another token against the others.
 */
export interface SignaturePatterns {
  hits: (string | null)[];
  known: string[];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A colon before a port, not the one before a clock's minutes or seconds (`10:22`, `03:02:21`). */
const PORT_COLON = String.raw`(?<![0-9]:[0-9]{2})(?<!(?:^|[^0-9.:])[0-9]{1,2}):`;
const PORT_IN_TEXT = new RegExp(String.raw`(?:(?<![0-9a-z])port[ =:]?|${PORT_COLON})([0-9]{2,5})(?![0-9])`, 'gi');
/**
 * A port bound to an address or named as one: `10.0.0.5:8080`,
 * `localhost:3000`, `[::1]:5432`, `:::3000`, `port 22732`, `port=9200`.
 * Line and column numbers (`app.js:12:5`), clock times and an address's
 * last digits (`192.168.17.128` is no address on port 28) are not.
 */
const ADDRESS_PORT =
  /(?:(?:(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}|localhost|\]|(?<![0-9a-f:])::1?):|(?<![0-9a-z])port[ =:]?)([0-9]{2,5})(?![0-9.])/gi;
/**
 * Any of `ports` as a record's raw text writes one, never the minutes or seconds of a clock time
 * (`03:02:21 [error]` names no FTP port 21): a colon after a number of one or two digits standing alone,
 * or after `hh:mm`, is a clock's.
 */
const portsPattern = (ports: string[]) => String.raw`(?:port[ =:]?|${PORT_COLON})(?:${ports.join('|')})(?![0-9])`;
const IPV6_LOOPBACK = String.raw`(?:^|[^0-9a-f:])::1(?![0-9a-f])|\[::1\]`;
const IPV4_LOOPBACK = String.raw`127\.0\.0\.1`;
/** The any-address a server binds: IPv6 `[::]:80` or Node's `:::3000`, IPv4 `0.0.0.0`. */
const IPV6_ANY = String.raw`\[::\]|(?:^|[^0-9a-f:]):::[0-9]`;
const IPV4_ANY = String.raw`(?:^|[^0-9.])0\.0\.0\.0(?![0-9])`;

/**
 * The discriminating tokens of a raw query as patterns. Kinds are compared
 * only with themselves: a query naming port 5432 penalises a record naming
 * 6379, never one naming no port.
 */
export function signatureOf(rawQuery: string): SignaturePatterns {
  const out: SignaturePatterns = { hits: [], known: [] };
  const add = (hit: string | null, known: string) => {
    out.hits.push(hit);
    out.known.push(known);
  };
  const lower = rawQuery.toLowerCase();
  const ports = new Set<string>();
  for (const match of lower.matchAll(PORT_IN_TEXT)) if (WELL_KNOWN_PORTS.has(match[1]!)) ports.add(match[1]!);
  // A port the query binds to an address says which server it dialled, even when it names no service:
  // a record naming a service port the query does not is another server.
  for (const match of lower.matchAll(ADDRESS_PORT)) ports.add(match[1]!);
  if (ports.size) add(portsPattern([...ports]), portsPattern([...new Set([...WELL_KNOWN_PORTS, ...ports])]));
  const v6 = new RegExp(IPV6_LOOPBACK).test(lower);
  const v4 = lower.includes('127.0.0.1');
  // An address is no service: a record carrying the query's loopback (or any-address) is no likelier the
  // same error than one carrying none (127.0.0.1 is in most connection errors), so only the other one counts.
  if (v6 !== v4) add(null, v6 ? IPV4_LOOPBACK : IPV6_LOOPBACK);
  const any6 = new RegExp(IPV6_ANY).test(lower);
  const any4 = new RegExp(IPV4_ANY).test(lower);
  if (any6 !== any4) add(null, any6 ? IPV4_ANY : IPV6_ANY);
  const hosts = WELL_KNOWN_HOSTS.filter((host) => lower.includes(host));
  if (hosts.length) add(hosts.map(escapeRegex).join('|'), WELL_KNOWN_HOSTS.map(escapeRegex).join('|'));
  return out;
}

/** Words of a normalized text as exact keys count them. */
export function keyWords(key: string): number {
  return key.split(/[ \n]+/).filter((w) => w !== '').length;
}
