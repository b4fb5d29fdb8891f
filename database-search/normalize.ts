/**
 * Literal normalization for search: the same error pasted from two machines
 * becomes the same text. Pure functions; the rules live in normalize-rules.ts
 * and are mirrored by the SQL function that normalizes stored documents.
 */
import { createHash } from 'node:crypto';
import { KEY_LINE, NORMALIZE_RULES, SEVERITY_PREFIX } from './normalize-rules.ts';
import { withoutLogPrefix, withoutLogPrefixes } from './log-prefix.ts';

const COMPILED = NORMALIZE_RULES.map((rule) => ({
  regex: new RegExp(rule.pattern, 'g'),
  replacement: rule.replacement,
}));

/**
 * Lower-cases ASCII letters only. Unicode case mapping differs between
 * JavaScript and a database's collation; SQL does the same with `translate`.
 */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * The normalized form of an error literal or query: lower-case, quotes
 * dropped, paths, addresses, ports, ids, times and versions masked by
 * placeholders (`<path>`, `<ip>`, `<n>`, `<hex>`, `<uuid>`, `<time>`,
 * `<ver>`, `<url>`), runs of space collapsed. Line breaks are kept: each
 * line of a trace is a key of its own (see `exactKeys`).
 */
export function normalizeLiteral(text: string): string {
  // PostgreSQL text cannot hold NUL, so stored text never has one; a query may.
  let normalized = lowerAscii(text.replaceAll('\u0000', ' '));
  for (const rule of COMPILED) normalized = normalized.replace(rule.regex, rule.replacement);
  return normalized;
}

/** Length in characters (code points), as PostgreSQL's `length` counts. */
function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const WORD = new RegExp(KEY_LINE.word, 'g');
const BOILERPLATE = new RegExp(KEY_LINE.boilerplate);
const LEADING_SEVERITY = new RegExp(`^${SEVERITY_PREFIX}`);

/** Words of a normalized line, placeholders not counted. */
function wordCount(line: string): number {
  let n = 0;
  for (const match of line.matchAll(WORD)) if (match[1] !== undefined) n++;
  return n;
}

/** Whether a line can identify an error alone (mirrored by SQL `ak_search_is_key_line`). */
export function isKeyLine(line: string): boolean {
  return charLength(line) >= KEY_LINE.minChars && wordCount(line) >= KEY_LINE.minWords && !BOILERPLATE.test(line);
}

/**
 * The exact-match keys of a stored text: the whole normalized text, and each
 * line that can identify an error alone, so a record holding a whole trace
 * is found by its error line (mirrored by SQL `ak_search_keys`).
 */
export function exactKeys(normalized: string): string[] {
  const keys = new Set<string>();
  if (normalized !== '') keys.add(normalized);
  for (const line of normalized.split('\n')) if (isKeyLine(line)) keys.add(line);
  return [...keys];
}

/**
 * Lines a runtime prints around every error it throws, which the stored keys still hold (their rule,
 * KEY_LINE, is mirrored by SQL): Node's re-throw of an unhandled `error` event opens the trace of every
 * connection, listen and TLS failure alike, so a query is not matched by it.
 */
const QUERY_BOILERPLATE = /^throw er; \/\/ unhandled error event$/;

/** Fragments of a query line are keys only with this many words: shorter runs collide too easily. */
const MIN_FRAGMENT_WORDS = 2;
/** How many words of its own a pasted line may carry before and after the literal (timestamps, levels, loggers, detail). */
const MAX_EXTRA_WORDS = 8;

/**
 * The exact-match keys of a query: those of `exactKeys`, plus each run of
 * whole words that drops up to 8 words from the start and the end of a
 * line. A log line pasted with its own timestamp, level or prefix
 * ("(error) …", "npm ERR! …"), or with trailing detail, still equals the
 * record's literal line exactly; its coverage then says how much of the
 * query the record accounts for. A run needs three words as pasted, so two
 * common words alone never match exactly.
 */
export function queryKeys(normalized: string): string[] {
  const keys = new Set([...exactKeys(normalized), ...exactKeys(withoutLogPrefixes(normalized))]);
  // Each line as pasted and without its log prefix (log-prefix.ts), which may be longer than 8 words.
  const lines = new Set(normalized.split('\n').flatMap((line) => [line, withoutLogPrefix(line)]));
  for (const line of lines) {
    const words = line.split(' ');
    const n = words.length;
    for (let start = 0; start <= Math.min(MAX_EXTRA_WORDS, n - 1); start++) {
      for (let end = Math.max(start + 1, n - MAX_EXTRA_WORDS); end <= n; end++) {
        const pasted = words.slice(start, end).join(' ');
        // A fragment stands for a line of its own, so it loses a leading severity word as lines do.
        const fragment = pasted.replace(LEADING_SEVERITY, '');
        if (wordCount(pasted) >= MIN_FRAGMENT_WORDS && isKeyLine(fragment)) keys.add(fragment);
      }
    }
  }
  return [...keys].filter((key) => !QUERY_BOILERPLATE.test(key));
}

/** Keys are stored as MD5 hex, as SQL's `md5()` makes them: short, fixed-size index entries. */
export function keyHash(key: string): string {
  return createHash('md5').update(key, 'utf8').digest('hex');
}
