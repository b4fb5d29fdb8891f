/**
 * Machine variants of an error literal: the same error as another machine
 * prints it. Each transformation changes only what differs between machines
 * (users and home directories, path style, hosts, addresses, ports that
 * carry no meaning, line numbers, timestamps, pod and container ids, the log
 * prefix around the line), never what tells errors apart (error codes and
 * classes, well-known service ports, library names). Deterministic: the
 * same literal and seed give the same variants, so the set is fixed.
 */
import { createHash } from 'node:crypto';
import { WELL_KNOWN_PORTS } from '../../database-search/signature-tokens.ts';

function rng(seed: string): () => number {
  let state = parseInt(createHash('md5').update(seed).digest('hex').slice(0, 8), 16) || 1;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const USERS = ['runner', 'dev', 'ubuntu', 'alice', 'jenkins', 'ec2-user', 'mk'];
const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function chars(next: () => number, alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

/** Another user's home, other line and column numbers, other ids and addresses, ports that carry no meaning changed. */
function otherMachine(literal: string, next: () => number): string {
  const user = pick(next, USERS);
  const n = (lo: number, span: number) => String(lo + Math.floor(next() * span));
  // One process keeps its id on every line it prints.
  const pids = new Map<string, string>();
  const pid = (old: string) => pids.get(old) ?? pids.set(old, n(1000, 60000)).get(old)!;
  return (
    literal
      .replace(/\/home\/[A-Za-z0-9_.-]+/g, `/home/${user}`)
      .replace(/\/Users\/[A-Za-z0-9_.-]+/g, `/Users/${user}`)
      .replace(/C:\\Users\\[A-Za-z0-9_.-]+/g, `C:\\Users\\${user}`)
      // macOS per-user temp folders and cargo/npm temp names.
      .replace(
        /\/var\/folders\/[a-z0-9_]{2}\/[a-z0-9_]{20,40}\/T\//g,
        () => `/var/folders/${chars(next, ALNUM, 2)}/${chars(next, ALNUM, 32)}/T/`,
      )
      .replace(
        /\b(cargo-install|pip-build-env-|docker-builder|tmp)([A-Za-z0-9]{6,10})\b/g,
        (_m, stem: string) => `${stem}${chars(next, ALNUM, 6)}`,
      )
      .replace(
        /(\.[a-z]{1,5}):(\d+)(?::(\d+))?/g,
        (_m, ext: string, _l: string, col?: string) => `${ext}:${n(10, 900)}${col === undefined ? '' : `:${n(1, 60)}`}`,
      )
      // TypeScript and C# print file(line,col).
      .replace(/(\.[a-z]{1,5})\((\d+),(\d+)\)/g, (_m, ext: string) => `${ext}(${n(10, 400)},${n(1, 60)})`)
      .replace(/\b(line) (\d+)/g, (_m, word: string) => `${word} ${n(10, 900)}`)
      .replace(/\b0x[0-9a-f]{6,}\b/g, () => `0x${chars(next, HEX, 12)}`)
      .replace(
        /(?<![0-9.])(?:127\.0\.0\.1|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.\d+\.\d+\.\d+)(?![0-9.])/g,
        (ip) =>
          ip === '127.0.0.1'
            ? ip
            : `10.${Math.floor(next() * 250)}.${Math.floor(next() * 250)}.${1 + Math.floor(next() * 250)}`,
      )
      // Cloud host names carry the address: ip-10-0-1-2, ec2-18-217-215-97.
      .replace(
        /\b(ip|ec2)-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}\b/g,
        (_m, stem: string) => `${stem}-${n(10, 200)}-${n(0, 250)}-${n(0, 250)}-${n(1, 250)}`,
      )
      .replace(/(?<=[^:0-9]:)(\d{4,5})(?![0-9])/g, (port) =>
        WELL_KNOWN_PORTS.has(port) ? port : String(3000 + Math.floor(next() * 6000)),
      )
      .replace(/\b(port) (\d{4,5})\b/g, (m, word: string, port: string) =>
        WELL_KNOWN_PORTS.has(port) ? m : `${word} ${3000 + Math.floor(next() * 6000)}`,
      )
      .replace(/\b(pid|process) (\d+)/gi, (_m, word: string) => `${word} ${n(1000, 60000)}`)
      // Process ids in log prefixes: (node:9357), [277], 7939#7939, nginx[19610].
      .replace(/\(node:(\d+)\)/g, (_m, old: string) => `(node:${pid(old)})`)
      .replace(/\b(\d{3,6})#\1\b/g, (_m, old: string) => `${pid(old)}#${pid(old)}`)
      .replace(/([a-z]\[)(\d{2,6})(\]:)/g, (_m, a: string, old: string, b: string) => `${a}${pid(old)}${b}`)
      .replace(
        /\b(\d{4})-(\d{2})-(\d{2})([T ])(\d{2}):(\d{2}):(\d{2})/g,
        (_m, _y, _mo, _d, sep: string) => `2025-0${n(1, 9)}-1${n(0, 9)}${sep}0${n(0, 9)}:1${n(0, 9)}:2${n(0, 9)}`,
      )
      .replace(
        /\b(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})/g,
        () => `2025/0${n(1, 9)}/1${n(0, 9)} 0${n(0, 9)}:1${n(0, 9)}:2${n(0, 9)}`,
      )
      // klog prefixes (E1008 16:46:15.978511) and kubectl event ages and counts ("21s (x50 over 10m)", "4m25s").
      .replace(
        /\b([IWEF])(\d{4}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})\b/g,
        (_m, level: string) =>
          `${level}0${n(1, 9)}1${n(0, 9)} 0${n(0, 9)}:1${n(0, 9)}:2${n(0, 9)}.${n(100000, 899999)}`,
      )
      .replace(/\(x(\d+) over (\d+)([smh])\)/g, (_m, _x, _o, unit: string) => `(x${n(2, 300)} over ${n(2, 58)}${unit})`)
      .replace(/(?<=\s)(\d+m)?(\d+s)(?=\s)/g, () => (next() < 0.5 ? `${n(2, 58)}s` : `${n(1, 40)}m${n(1, 58)}s`))
      .replace(/-[0-9a-f]{8,10}-[a-z0-9]{5}\b/g, () => `-${chars(next, HEX, 9)}-${chars(next, ALNUM, 5)}`)
      .replace(/\b[0-9a-f]{12,64}\b/g, (hex) =>
        /[a-f]/.test(hex) && /[0-9]/.test(hex) ? chars(next, HEX, hex.length) : hex,
      )
  );
}

/** Windows path style for Unix paths (and the other way round). */
function otherPathStyle(literal: string, next: () => number): string {
  const user = pick(next, USERS);
  if (/[A-Z]:\\/.test(literal)) {
    return literal.replace(
      /[A-Z]:\\Users\\[A-Za-z0-9_.-]+((?:\\[^\\\s"'(),:]+)+)/g,
      (_m, rest: string) => `/home/${user}${rest.replaceAll('\\', '/')}`,
    );
  }
  return literal.replace(
    /\/(?:home|Users)\/[A-Za-z0-9_.-]+((?:\/[^/\s"'(),:]+)+)/g,
    (_m, rest: string) => `C:\\Users\\${user}${rest.replaceAll('/', '\\')}`,
  );
}

const PREFIXES: Array<(next: () => number) => string> = [
  (next) =>
    `2025-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}T0${Math.floor(next() * 9)}:${10 + Math.floor(next() * 49)}:${10 + Math.floor(next() * 49)}.${Math.floor(next() * 899) + 100}Z ERROR `,
  (next) => `web-${1 + Math.floor(next() * 3)}  | `,
  (next) => `[pod/api-${chars(next, HEX, 9)}-${chars(next, ALNUM, 5)}/app] `,
  (next) =>
    `Jun ${10 + Math.floor(next() * 18)} 0${Math.floor(next() * 9)}:1${Math.floor(next() * 9)}:2${Math.floor(next() * 9)} ip-10-0-${Math.floor(next() * 250)}-${Math.floor(next() * 250)} app[${1000 + Math.floor(next() * 9000)}]: `,
  (next) => `##[error]${next() < 0.5 ? '' : ' '}`,
  (next) => `${['api', 'worker', 'db', 'web'][Math.floor(next() * 4)]}-${1 + Math.floor(next() * 3)}  | `,
  (next) =>
    `time="2025-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}T0${Math.floor(next() * 9)}:1${Math.floor(next() * 9)}:2${Math.floor(next() * 9)}Z" level=error msg="`,
  (next) =>
    `[${10 + Math.floor(next() * 18)}/0${1 + Math.floor(next() * 9)}/2025 1${Math.floor(next() * 9)}:2${Math.floor(next() * 9)}:3${Math.floor(next() * 9)}] `,
];

/** The literal as a log line prints it: a timestamp, container, pod or syslog prefix on its first line. */
function wrappedLogLine(literal: string, next: () => number): string {
  const [first, ...rest] = literal.split('\n');
  return [`${pick(next, PREFIXES)(next)}${first}`, ...rest].join('\n');
}

/**
 * The literal as a collector prints it: `docker compose logs` and `kubectl
 * logs --prefix` put the container's name before every line, and Windows
 * terminals end lines with CRLF.
 */
function prefixedEveryLine(literal: string, next: () => number): string {
  const prefix =
    next() < 0.5
      ? `${['api', 'worker', 'app'][Math.floor(next() * 3)]}-${1 + Math.floor(next() * 3)}  | `
      : `[pod/${['api', 'web', 'jobs'][Math.floor(next() * 3)]}-${chars(next, HEX, 9)}-${chars(next, ALNUM, 5)}/${['app', 'main'][Math.floor(next() * 2)]}] `;
  const eol = next() < 0.3 ? '\r\n' : '\n';
  return literal
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join(eol);
}

/** The literal's first error line (not a stack frame), cut to a run of words: what a truncated paste keeps. */
export function substringOf(literal: string, seed: string): string {
  const next = rng(`substring:${seed}`);
  const lines = literal
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  // A cut-off paste keeps the error's own line: the first that is no stack frame and has some words.
  const frame = /^(?:at |File "|\d+: 0x|npm ERR! (?:code|errno|syscall) |Traceback \(most recent call last\):)/;
  const errorLines = lines.filter((l) => !frame.test(l));
  // Python prints its error last, under the frames.
  const line = errorLines.find((l) => l.split(/\s+/).length >= 4) ?? errorLines.at(-1) ?? lines[0] ?? literal;
  const words = line.split(/\s+/);
  if (words.length <= 4) return line;
  const keep = Math.max(4, Math.ceil(words.length * (0.5 + next() * 0.25)));
  const start = Math.floor(next() * (words.length - keep + 1));
  return words.slice(start, start + keep).join(' ');
}

/**
 * Three variants of a literal as other machines print it: one changes the
 * machine's particulars, one also wraps it in a log line and swaps the path
 * style, one prefixes every line as a log collector does.
 */
export function machineVariants(literal: string, seed: string): [string, string, string] {
  const next = rng(`variants:${seed}`);
  const first = otherMachine(literal, next);
  const second = wrappedLogLine(otherPathStyle(otherMachine(literal, next), next), next);
  const third = prefixedEveryLine(otherMachine(literal, next), next);
  return [first, second, third];
}
