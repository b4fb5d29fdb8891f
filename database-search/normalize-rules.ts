/**
 * The rules that make one error literal out of the many ways it arrives.
 *
 * Agents paste errors from their own machines, so the same failure shows up
 * with different paths, ports, line numbers, PIDs, addresses, ids, times and
 * versions. Each rule masks one such kind of noise with a placeholder.
 *
 * The rules run in two engines: JavaScript for queries and for the
 * documents the worker builds (normalize.ts, document-text.ts), and
 * PostgreSQL for the documents the SQL refresh functions build
 * (`ak_search_normalize` in db/migrations/000003.sql, generated from this
 * table by `npm run search:normalize-sql`). So every pattern keeps to what both
 * engines read the same way:
 * - explicit ASCII classes (`[0-9]`, `[a-z0-9_]`), never `\d`, `\w`, `\s`,
 *   `\b` or `.`, whose meaning differs between the engines;
 * - `\uXXXX` escapes (four hex digits) for non-ASCII characters;
 * - only greedy quantifiers, and alternatives that cannot both match at one
 *   place, because PostgreSQL takes the longest match where JavaScript takes
 *   the first;
 * - replacements with `$1` back-references (translated to `\1` for SQL) and
 *   no other special characters.
 * Text is lower-cased (ASCII letters only, as both engines do it alike)
 * before the rules run. Rules that share a replacement share one pattern:
 * PostgreSQL keeps only 32 compiled expressions per session, and a trigger
 * that cycles through more recompiles every one of them for every row. test/database-search/normalize-sql.test.ts checks that the two
 * engines agree on every evaluation literal and variant.
 *
 * Changing a rule means a new migration that replaces the SQL function and
 * refreshes the stored documents.
 */
export interface NormalizeRule {
  /** What the rule masks; shown in docs/search.md. */
  name: string;
  pattern: string;
  replacement: string;
}

/** A severity word that opens a line; the line means the same without it. */
export const SEVERITY_PREFIX = String.raw`(?:error|fatal|warning|warn|critical|severe|panic): *`;

export const NORMALIZE_RULES: readonly NormalizeRule[] = [
  { name: 'control characters', pattern: String.raw`[\u0001-\u0008\u000e-\u001f\u007f]`, replacement: ' ' },
  // Straight, curly and back quotes vary by shell, OS and locale; none carries meaning.
  {
    name: 'quotes',
    pattern: String.raw`['"\u0060\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u2032\u2033]`,
    replacement: '',
  },
  { name: 'horizontal space', pattern: String.raw`[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+`, replacement: ' ' },
  { name: 'line endings', pattern: String.raw`\r\n?`, replacement: '\n' },
  { name: 'urls', pattern: String.raw`[a-z][a-z0-9+.-]*://[^ \t\n<>]*`, replacement: '<url>' },
  // "Program Files" is the one common Windows directory with spaces in it.
  {
    name: 'windows program files',
    pattern: String.raw`[a-z]:[\\/]program files(?: \(x86\))?`,
    replacement: 'c:/programfiles',
  },
  {
    name: 'windows paths',
    pattern: String.raw`(?<![a-z0-9_])[a-z]:[\\/](?:[^\\/ \t\n<>:|?*,;()\[\]]+[\\/]?)*(?::[0-9]+)*`,
    replacement: '<path>',
  },
  {
    name: 'absolute and dot-relative paths, with :line:column',
    pattern: String.raw`(?<![a-z0-9_.~/\\<-])(?:~|\.\.?)?(?:/[a-z0-9_.@+%~$-]+)+/?(?::[0-9]+)*`,
    replacement: '<path>',
  },
  {
    name: 'relative paths to a file',
    pattern: String.raw`(?<![a-z0-9_.~/\\<-])[a-z0-9_.@+-]+(?:/[a-z0-9_.@+-]+)+\.[a-z][a-z0-9]{0,5}(?::[0-9]+)*`,
    replacement: '<path>',
  },
  {
    name: 'file:line references',
    pattern: String.raw`(?<![a-z0-9_.~/\\<-])[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.[a-z][a-z0-9]{0,5}:[0-9]+(?::[0-9]+)?`,
    replacement: '<path>',
  },
  {
    name: 'uuids',
    pattern: String.raw`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
    replacement: '<uuid>',
  },
  {
    name: 'dates and timestamps (ISO, or with slashes as nginx and syslog write them)',
    pattern: String.raw`[0-9]{4}(?:-[0-9]{2}-[0-9]{2}(?:[t ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?(?:z|[+-][0-9]{2}:?[0-9]{2})?)?|/[0-9]{2}/[0-9]{2})`,
    replacement: '<time>',
  },
  {
    name: 'clock times',
    pattern: String.raw`(?<![0-9:])[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?`,
    replacement: '<time>',
  },
  {
    name: 'ipv4 addresses',
    pattern: String.raw`(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])`,
    replacement: '<ip>',
  },
  {
    // Bracketed IPv6, the loopback ::1 (and ::ffff:-mapped IPv4), Node's any-address "::" before a
    // port (":::3000"), and localhost: one rule, as each alternative starts differently.
    name: 'ipv6 addresses, loopback and localhost',
    pattern: String.raw`\[[0-9a-f:.]*:[0-9a-f:.]*\]|(?<![a-z0-9_:])::(?:ffff:<ip>|1)(?![0-9a-f])|(?<![a-z0-9_:])::(?=:[0-9])|(?<![a-z0-9_.-])localhost(?![a-z0-9_-])`,
    replacement: '<ip>',
  },
  // "db.internal (10.1.2.3)": a host name shown with its address is as machine-specific as the address.
  {
    name: 'host names with their address',
    pattern: String.raw`(?<![a-z0-9.<-])[a-z0-9][a-z0-9.-]*(?= \(<ip>\))`,
    replacement: '<ip>',
  },
  {
    // 0x… numbers; and commit, container and object ids: hex runs of 7+ with both a digit and a letter.
    name: 'hex numbers and ids',
    pattern: String.raw`(?<![a-z0-9_])0x[0-9a-f]+|(?<![a-z0-9_])(?=[a-f]*[0-9])(?=[0-9]*[a-f])[0-9a-f]{7,}(?![a-z0-9_])`,
    replacement: '<hex>',
  },
  {
    name: 'versions',
    pattern: String.raw`(?<![0-9.])[0-9]+(?:\.[0-9]+)+(?:-(?:alpha|beta|rc|pre|dev|canary|next|snapshot)(?:\.?[0-9]+)*)?(?![0-9])`,
    replacement: '<ver>',
  },
  {
    name: 'numbered lines, ports, processes and threads',
    pattern: String.raw`(?<![a-z0-9_])(line|port|pid|process|thread|tid|col|column|position|offset|attempt|worker)([ #:=]{1,2})[0-9]+`,
    replacement: '$1$2<n>',
  },
  {
    name: 'numbers after a colon (ports, lines) and long numbers',
    pattern: String.raw`(?<=:)[0-9]+|(?<![a-z0-9_])[0-9]{4,}(?![a-z0-9_])`,
    replacement: '<n>',
  },
  { name: 'java thread names', pattern: String.raw`(?<=exception in thread )[^ \n]+`, replacement: '<thread>' },
  { name: 'nginx connection numbers', pattern: String.raw`(?<![a-z0-9_])\*[0-9]+`, replacement: '*<n>' },
  {
    name: 'durations and sizes',
    pattern: String.raw`(?<![a-z0-9_.])[0-9]+(?:\.[0-9]+)?(ms|s|sec|secs|seconds|m|min|mins|minutes|h|hr|hours|kb|mb|gb|kib|mib|gib|b|bytes)(?![a-z0-9_])`,
    replacement: '<n>$1',
  },
  { name: 'space around line breaks', pattern: String.raw` *\n[ \n]*`, replacement: '\n' },
  // Severity words vary by client ("FATAL:" from psql, "error:" from a driver) for one message.
  { name: 'leading severity words', pattern: String.raw`(^|\n)${SEVERITY_PREFIX}`, replacement: '$1' },
  { name: 'leading and trailing space', pattern: String.raw`^[ \n]+|[ \n]+$`, replacement: '' },
];

/**
 * Which lines of a normalized text are exact-match keys of their own (the
 * whole text always is). A key line must be long enough and hold enough
 * words to identify an error, and must not be boilerplate that every trace
 * of its kind shares (stack frames, traceback headers), or one pasted frame
 * would match every record of that ecosystem exactly.
 */
export const KEY_LINE = {
  minChars: 12,
  minWords: 2,
  /** A word: a run of two or more letters (the capture); placeholders match whole, uncaptured, so they never count. */
  word: '<[a-z]+>|([a-z]{2,})',
  boilerplate: String.raw`^(?:at [^\n]*|file <path>[^\n]*|traceback \(most recent call last\):|during handling of the above exception, another exception occurred:|the above exception was the direct cause of the following exception:|goroutine [^ \n]+ \[[^\]\n]*\]:?|stack backtrace:|caused by:|note: run with rust_backtrace=[^\n]*|npm err! a complete log of this run can be found in:[^\n]*)$`,
} as const;
