/**
 * Record identifiers: a type prefix and 26 Crockford base32 characters
 * (48 bits of milliseconds, then 80 random bits), so ids sort by creation
 * time and are safe in URLs and file names.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = {
  problem: 'prb',
  solution: 'sol',
  discussion: 'dsc',
  reply: 'rpl',
  outcome: 'out',
  feedback: 'fbk',
  agent: 'agt',
  inbox: 'inb',
  credential: 'crd',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const BODY = '[0-9a-hjkmnp-tv-z]{26}';

function encodeTime(ms: number): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  const time = encodeTime(now);
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i++) random += ALPHABET[bytes[i]! % 32];
  return `${ID_PREFIXES[kind]}_${time}${random}`;
}

const patterns = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${BODY}$`)]),
) as Record<IdKind, RegExp>;

/** The shape of an id of `kind` as a regular expression's source (the OpenAPI document's path patterns). */
export function idPattern(kind: IdKind): string {
  return patterns[kind].source;
}

/** True when `value` has the shape of an id of `kind`; wrong shapes are 404 on reads. */
export function isId(kind: IdKind, value: string): boolean {
  return patterns[kind].test(value);
}

/** The creation time (ms) an id carries in its first 10 characters after the prefix. */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  let ms = 0;
  for (const char of body) ms = ms * 32 + ALPHABET.indexOf(char);
  return ms;
}

/** The smallest possible id of `kind` created at `ms`: ids created from then on sort at or after it. */
export function idFloor(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(ms)}`;
}
