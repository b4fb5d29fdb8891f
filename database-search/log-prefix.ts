/**
 * What a log collector puts before a pasted line, recognized in a
 * normalized query line so the line can be matched without it: a pasted
 * error arrives as `2025-03-01T10:00:00Z ERROR …`, `api-1  | …`,
 * `[pod/api-5d9c…/app] …`, `Jun 16 05:10:21 host app[6591]: …`,
 * `time="…" level=error msg="…`, `##[error]…`, `[21/01/2025 10:21:37] …`,
 * `2025-08-20 01:50:14.875 UTC [1360204] FATAL: …` or pm2's `0|api | …`.
 * Query-side only: stored literals are matched as they are, so stripping
 * can only widen what a query finds (a record containing the whole line
 * also contains it without its prefix).
 */

/** One leading token of log metadata, with the space after it. */
const PREFIX_TOKEN = new RegExp(
  [
    // Timestamps (already <time> once normalized), alone or glued to a zone or level: <time>z, <time>]
    String.raw`<time>[^ \n]*`,
    // A time zone or offset printed after the time: "<time> utc [<pid>]: fatal: …", "<time> +<n>"
    String.raw`(?:utc|gmt|cst|cet|cest|eet|eest|pst|pdt|est|edt|mst|mdt|bst|jst|kst|msk|aest)(?![a-z])|[+-]<n>`,
    // pm2's process prefix: "0|api |"
    String.raw`[0-9]+\|[a-z0-9_.-]+ \|`,
    // Bracketed metadata: [pod/…/app], [21/01/<n> <time>], [error], [thrd:…]
    String.raw`\[[^\]\n]*\]:?`,
    // docker compose / kubectl --prefix: "api-1 |"
    String.raw`[a-z0-9_.-]+ \|`,
    // Severity words as a logger prints them.
    String.raw`(?:error|err|warn|warning|info|debug|trace|fatal|critical|severe|notice)(?::|\b)`,
    // logfmt pairs before the message: time=<time> level=error
    String.raw`(?:time|ts|level|lvl|severity|logger|caller|source|component)=[^ \n]*`,
    // GitHub Actions annotations: ##[error]
    String.raw`##\[[a-z]+\]`,
    // syslog: "jun 16 <time> host app[<n>]:" (the time is stripped by its own token)
    String.raw`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec) [0-9]{1,2}`,
    String.raw`[a-z0-9_.-]+ [a-z0-9_.-]+\[(?:<n>|[0-9]+)\]:`,
    String.raw`[a-z0-9_.-]+\[(?:<n>|[0-9]+)\]:`,
  ]
    .map((alternative) => `(?:${alternative})`)
    .join('|'),
);

const LEADING = new RegExp(`^(?:${PREFIX_TOKEN.source})(?: +|$)`);
/** A GitHub Actions annotation is glued to the message it marks. */
const ANNOTATION = /^##\[[a-z]+\] */;
/** logfmt's message key, glued to the message it introduces: msg=get <url> … */
const MESSAGE_KEY = /^(?:msg|message)=/;

/** A normalized line without the log metadata before its message (the line itself when it has none). */
export function withoutLogPrefix(line: string): string {
  let rest = line;
  for (let i = 0; i < 12; i++) {
    const next = rest.replace(ANNOTATION, '').replace(LEADING, '').replace(MESSAGE_KEY, '');
    if (next === rest) break;
    rest = next;
  }
  // A line that was all metadata keeps what it was: there is nothing else to match.
  return rest === '' ? line : rest;
}

/** Each line of a normalized text without its log prefix. */
export function withoutLogPrefixes(normalized: string): string {
  return normalized.split('\n').map(withoutLogPrefix).join('\n');
}

/**
 * Words a line says a failure with. A pasted trace often opens with the
 * shell's command, a build's progress or a table's header (`Type Reason
 * Age From Message`), and its first terms would be those.
 */
const FAILURE_LINE =
  /error|errno|fail|fatal|exception|refused|denied|cannot|can'?t|unable|not found|no such|invalid|timed out|timeout|killed|oom|back-?off|crashloop|evicted|unhealthy|panic|abort|forbidden|unauthori[sz]ed|rejected|exceed|too many|not allowed|not supported|warn/;

/**
 * The lines of a pasted text that say a failure first, then the others, each
 * group in its order: the order its full-text terms are read in, so the
 * first terms (a query counts 16) are the failure's.
 */
export function failureLinesFirst(normalized: string): string {
  const lines = normalized.split('\n');
  if (lines.length < 2) return normalized;
  const failing = lines.filter((line) => FAILURE_LINE.test(line));
  if (failing.length === 0 || failing.length === lines.length) return normalized;
  return [...failing, ...lines.filter((line) => !FAILURE_LINE.test(line))].join('\n');
}

/**
 * A stack frame as normalized (`at fn (<path>)`, `file <path>, line <n>, in fn`, `file util.js, line <n>, in …`),
 * a Python traceback's header, or the line Node prints above the trace of every unhandled `error` event.
 */
const FRAME_LINE =
  /^(?:at [^\n]*|file [^,\n]+, line [^\n]*|traceback \(most recent call last\):|throw er; \/\/ unhandled error event)$/;
/** A Python frame, whose next line is the frame's source line (`conn = pymysql.connect(…)`). */
const PYTHON_FRAME = /^file [^,\n]+, line /;

/**
 * A pasted text without its stack frames' lines, a Python frame's source line among them unless it says a
 * failure (the text itself when it has none, or is nothing but frames).
 */
export function withoutFrameLines(normalized: string): string {
  const lines = normalized.split('\n');
  const kept = lines.filter((line, i) => {
    if (FRAME_LINE.test(line.trim())) return false;
    const previous = lines[i - 1]?.trim();
    return previous === undefined || !PYTHON_FRAME.test(previous) || FAILURE_LINE.test(line);
  });
  return kept.length === lines.length || kept.every((line) => line.trim() === '') ? normalized : kept.join('\n');
}
