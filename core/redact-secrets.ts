/**
 * Secrets never stored: secret shapes in contribution text are replaced with
 * a marker before a write is queued, so the original reaches neither the
 * queue, the database, the projections nor a log line. The receipt names the
 * fields that were redacted. Search queries go through the same function, so
 * a pasted error carrying the agent's own token matches the stored literal,
 * and the operator's stored-record scan uses it too: one scanner for all
 * (docs/secrets.md).
 *
 * Two sources of rules, applied to the original text in one pass:
 * - secretlint's recommended preset, a maintained and tested rule set with a
 *   rule per provider (GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic,
 *   npm, SendGrid, private keys, database URLs, …). Its rules are plain
 *   synchronous functions that report ranges; they run here directly with a
 *   small context instead of through secretlint's asynchronous file linter,
 *   so scanning a write costs a few regular-expression passes.
 * - the context rules below, for what a provider rule set leaves out:
 *   `NAME=value` where the name says password, secret, token or key, header
 *   lines, URL user-info, JSON `auth`/`password` fields, lower-case and
 *   escaped PEM blocks, PuTTY keys, and a few shapes the preset lacks.
 *
 * The marker names the kind of secret (`<redacted:github-token>`) and none
 * of its characters. Long hex runs, UUIDs and commit hashes carry no prefix
 * or context and stay; so does prose that only mentions a password.
 */
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';

/** The start of every marker; the marker is `<redacted:KIND>`. */
export const SECRET_MARKER_PREFIX = '<redacted:';

export function secretMarker(kind: string): string {
  return `${SECRET_MARKER_PREFIX}${kind}>`;
}

/** One place in a text that holds a secret: [start, end) and what it is. */
interface Finding {
  start: number;
  end: number;
  kind: string;
}

// ---------------------------------------------------------------- secretlint

interface SecretlintReport {
  range: readonly [number, number];
  message: { messageId?: string; message?: string };
}
interface SecretlintRuleCreator {
  meta: { id: string; type: string };
  create(context: unknown, options: Record<string, unknown>): { file?: (source: unknown) => unknown };
}

/** Rule-set message ids whose spelled-out form reads badly as a kind. */
const KIND_OF_MESSAGE: Record<string, string> = {
  AWSSecretAccessKey: 'aws-secret-access-key',
  AWSAccessKeyID: 'aws-access-key-id',
  AWSAccountID: 'aws-account-id',
  BasicAuth: 'url-password',
  MongoDBConnection: 'database-url',
  MySQLConnection: 'database-url',
  PostgreSQLConnection: 'database-url',
  Npmrc_authToken: 'npm-token',
  PackageJSON_xOauthToken: 'github-token',
  IncomingWebhook: 'slack-webhook',
  PrivateKey: 'private-key',
  PrivateKeyJSON: 'private-key',
};

function kindOfMessage(messageId: string | undefined, ruleId: string): string {
  if (messageId && KIND_OF_MESSAGE[messageId]) return KIND_OF_MESSAGE[messageId];
  const words = (messageId || ruleId.replace(/^@secretlint\/secretlint-rule-/, ''))
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.join('-') || 'secret';
}

/** Findings of the current scan; the rules report into it synchronously. */
let sink: Finding[] = [];

/**
 * The preset's scanner rules, each created once with a context that records
 * ranges and message ids only: the rule's message text, which quotes the
 * secret, is never built.
 */
const SECRETLINT_SCANNERS = (recommendedRules as unknown as SecretlintRuleCreator[])
  .filter((rule) => rule.meta.type === 'scanner' && rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
  .map((rule) => {
    const context = {
      sharedOptions: {},
      createTranslator: () => (messageId: string) => ({ messageId, message: messageId }),
      ignore: () => {},
      report: (report: SecretlintReport) => {
        const [start, end] = report.range;
        sink.push({ start, end, kind: kindOfMessage(report.message.messageId, rule.meta.id) });
      },
    };
    const handler = rule.create(context, {});
    return handler.file?.bind(handler);
  })
  .filter((file): file is (source: unknown) => unknown => file !== undefined);

function secretlintFindings(text: string): Finding[] {
  sink = [];
  const source = { content: text, filePath: 'contribution.txt', ext: '.txt', contentType: 'text' };
  for (const file of SECRETLINT_SCANNERS) file(source);
  const found = sink;
  sink = [];
  return found;
}

// ------------------------------------------------------------- context rules

interface ContextRule {
  /** What the rule finds; listed in the docs. */
  name: string;
  kind: string | ((groups: Record<string, string | undefined>) => string);
  /** Global, with the `d` flag; the named group `secret` is what is replaced (the whole match without one). */
  pattern: RegExp;
  /** Whether a match is really a secret (a plain word after "Bearer" is not). */
  accept?: (secret: string, groups: Record<string, string | undefined>) => boolean;
  /**
   * What a text must hold for the rule to find anything in it, tested first: a text without it is not
   * scanned by the rule. Rules that try a match at every name-like run read the whole text, and cost
   * more than the rest of the scan. Only what `pattern` and `accept` already require.
   */
  requires?: RegExp;
}

/** Every name `namesASecret` accepts holds one of these (its words, its suffixes and `key`). */
const SECRET_NAME_PART = /pass|pwd|secret|token|auth|credential|key/i;

/** A value that stands for a secret without being one: a placeholder, a variable, a mask. */
const PLACEHOLDER_VALUE =
  /^(?:<[^>]*>|\$\{[^}]*\}?|\$\(?[A-Za-z_][A-Za-z0-9_]*\)?|%\(?[A-Za-z_]*\)?s|\{\{[^}]*\}\}|\*+|x+|X+|\.{3,}|…|true|false|null|nil|none|undefined|required|optional|string|changeme|redacted|hidden|secret|password|empty|\[redacted\]|\[filtered\]|\[hidden\]|process\.env\.[A-Za-z0-9_.]+|os\.environ.*|env\(.*)$/i;

function isRealValue(value: string): boolean {
  return value.length >= 3 && !PLACEHOLDER_VALUE.test(value) && !value.startsWith(SECRET_MARKER_PREFIX);
}

/** Set-Cookie attributes, which are not secret and tell the reader what the cookie was. */
const COOKIE_ATTRIBUTES = /^(?:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned)$/i;

/** `Basic` credentials are base64 of `user:password`; a plain word after "Basic" is not one. */
function isBasicCredential(token: string): boolean {
  if (token.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return false;
  return Buffer.from(token, 'base64').toString('latin1').includes(':');
}

/** A bearer token outside a header: long, and not a plain word ("Bearer authentication_required"). */
function looksLikeToken(token: string): boolean {
  return token.length >= 16 && /[0-9]/.test(token) && /[A-Za-z]/.test(token);
}

/**
 * Whether a field, variable or header by this name holds a secret, judged
 * on its words (`DB_PASSWORD`, `PGPASSWORD`, `jwtSecret`, `_authToken`,
 * `AccountKey`, `client_secret`, a bare `auth` as in Docker's and npm's
 * config files). A name whose last word says it is about the secret rather
 * than the secret (`token_type`, `password_file`, `secret_name`, `key_id`)
 * is no secret. A name that only ends in `key` (`OPENAI_KEY`, not
 * `sort_key`) counts when its value looks made rather than written.
 */
export function namesASecret(name: string, value = ''): boolean {
  // Checked first, so the rules' `requires` holds by construction.
  if (!SECRET_NAME_PART.test(name)) return false;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0 || PUBLIC_LAST_WORD.has(words.at(-1)!)) return false;
  if (words.some((w) => SECRET_WORDS.has(w) || SECRET_SUFFIX.test(w))) return true;
  for (let i = 1; i < words.length; i++) if (words[i] === 'key' && KEY_QUALIFIERS.has(words[i - 1]!)) return true;
  return words.length > 1 && words.at(-1) === 'key' && looksMade(value, 12);
}
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'pwd',
  'secret',
  'secrets',
  'token',
  'auth',
  'credential',
  'credentials',
  'apikey',
  'accountkey',
  'privatekey',
  'secretkey',
  'accesskey',
  'authtoken',
]);
const SECRET_SUFFIX = /(?:password|passwd|secret|token|apikey|accesskey|secretkey|privatekey|accountkey)$/;
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'private',
  'secret',
  'account',
  'signing',
  'encryption',
  'master',
  'client',
  'subscription',
  'license',
  'ssh',
  'app',
  'service',
  'shared',
]);
const PUBLIC_LAST_WORD = new Set([
  'type',
  'types',
  'url',
  'uri',
  'endpoint',
  'file',
  'path',
  'name',
  'id',
  'ref',
  'method',
  'mode',
  'provider',
  'length',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'count',
  'size',
  'policy',
  'required',
  'enabled',
  'hint',
  'prompt',
  'field',
  'header',
  'location',
  'dir',
  'env',
  'source',
  'version',
  'format',
  'algorithm',
  'strategy',
  'hash',
  'reset',
  'changed',
  'limit',
]);

/** The kind a secret-naming name gives its value: `DB_PASSWORD` holds a password, `NODE_AUTH_TOKEN` a token. */
export function kindOfName(name: string): string {
  const lower = name.toLowerCase();
  if (/pass|pwd/.test(lower)) return 'password';
  if (/token/.test(lower)) return 'token';
  if (/secret/.test(lower)) return 'secret';
  if (/key/.test(lower)) return 'key';
  return 'credential';
}

/** A value that a program made (a digit or symbol among letters), not a word someone wrote. */
function looksMade(value: string, minLength: number): boolean {
  return value.length >= minLength && /[A-Za-z]/.test(value) && /[^A-Za-z]/.test(value) && !/\s/.test(value);
}

/**
 * Candidate names for the assignment rules; `namesASecret` decides. Any
 * name-like run, bounded, and (by the rules' look-behind) only from the start
 * of a run: a keyword inside the pattern would make a long run of name
 * characters cost quadratic time.
 */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{2,64}`;

/** A bare value: up to a space, a quote or a separator of connection strings and query strings. */
const BARE_VALUE = String.raw`[^\s"'\u0060&;,<>)\]}]+`;

const CONTEXT_RULES: readonly ContextRule[] = [
  {
    // Whole PEM private-key blocks in any case, also inside JSON strings ("\n" escapes), and a block cut off by the paste.
    name: 'PEM private-key blocks, upper- or lower-case, escaped or cut off',
    kind: 'private-key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/dgi,
  },
  {
    name: 'PuTTY private keys',
    kind: 'putty-private-key',
    pattern: /PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]+|$)/dgi,
  },
  {
    name: 'Authorization and Proxy-Authorization header values',
    kind: 'authorization',
    pattern:
      /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256|apikey|sso-key|key)\s+)?(?<secret>[^\s"',;]+(?:,\s*[a-z]+=[^\s"',;]+)*)/dgi,
    accept: isRealValue,
  },
  {
    // X-Api-Key, X-Auth-Token, Private-Token, X-Vault-Token, Ocp-Apim-Subscription-Key, …
    name: 'credential header lines',
    kind: 'header-credential',
    pattern:
      /(?<![A-Za-z0-9_-])(?<name>x-[a-z0-9-]{1,60}|api-?key|apikey|private-token|ocp-apim-subscription-key)["']?\s*:\s*["']?(?<secret>[^\s"',;]+)/dgi,
    accept: (secret, groups) =>
      /key|token|secret|auth|password|signature|session/i.test(groups.name ?? '') && isRealValue(secret),
  },
  {
    name: 'Cookie and Set-Cookie header values',
    kind: 'cookie',
    pattern: /\b(?:set-)?cookie["']?\s*:\s*(?<secret>[^\n"]*)/dgi,
  },
  {
    name: 'Bearer tokens',
    kind: 'bearer-token',
    pattern: /\bbearer\s+(?<secret>[A-Za-z0-9._~+/=-]+)/dgi,
    accept: looksLikeToken,
  },
  {
    name: 'Basic credentials',
    kind: 'basic-credential',
    pattern: /\bbasic\s+(?<secret>[A-Za-z0-9+/]+={0,2})(?![A-Za-z0-9+/=])/dgi,
    accept: isBasicCredential,
  },
  {
    // scheme://user:password@host: the user and host stay, the password goes, up to the last `@` before the host.
    name: 'passwords in URLs (an @ in the password included)',
    kind: 'url-password',
    pattern:
      /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/?#@"'<>]{0,256}:(?<secret>[^\s/?#"'<>]{1,256})@(?=[^\s@/?#"'<>]*[A-Za-z0-9\]])/dgi,
    accept: isRealValue,
    requires: /:\/\//,
  },
  {
    // GitHub tokens run into a suffix (`ghp_…_old`) escape the rule set's word boundary.
    name: 'GitHub tokens, also followed by a suffix',
    kind: 'github-token',
    pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})[A-Za-z0-9_]*/dg,
  },
  { name: 'JSON Web Tokens', kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/dg },
  {
    name: 'AWS access key ids',
    kind: 'aws-access-key-id',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|AKPA|ANPA|ANVA|APKA|AROA|A3T[A-Z0-9])[A-Z0-9]{16}\b/dg,
  },
  { name: 'Google API keys', kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/dg },
  {
    name: 'Google OAuth access tokens and client secrets',
    kind: 'google-oauth-token',
    pattern: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,})/dg,
  },
  {
    name: 'GitLab tokens',
    kind: 'gitlab-token',
    pattern: /\bgl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|agent)-[0-9A-Za-z_-]{20,}/dg,
  },
  {
    name: 'Slack tokens and webhooks',
    kind: 'slack-token',
    pattern:
      /\b(?:xox[abposre]-[0-9A-Za-z-]{10,}|xapp-[0-9A-Za-z-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+)/dg,
  },
  {
    name: 'Stripe keys and webhook secrets',
    kind: 'stripe-key',
    pattern: /\b(?:(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{20,})/dg,
  },
  {
    name: 'npm, PyPI and OpenAI-style tokens',
    kind: 'api-token',
    pattern: /\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})/dg,
  },
  { name: 'SendGrid keys', kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/dg },
  { name: 'Hugging Face tokens', kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/dg },
  {
    // "password": "…", 'auth': '…', "private_key": "…" — any quoted key that names a secret, any quoted value.
    name: 'quoted JSON and YAML fields that name a secret',
    kind: (groups) => kindOfName(groups.name ?? ''),
    pattern:
      /(?<q>["'])(?<name>[A-Za-z0-9_.-]{1,64})\k<q>\s*(?::|=>|=)\s*(?<vq>["'])(?<secret>(?:\\.|(?!\k<vq>)[^\\\n]){1,2000})\k<vq>/dg,
    accept: (secret, groups) => namesASecret(groups.name ?? '', secret) && isRealValue(secret),
    requires: SECRET_NAME_PART,
  },
  {
    // DB_PASSWORD=…, PGPASSWORD=…, export JWT_SECRET="…", api_key = '…', --password=…, AccountKey=…;, :_authToken=…
    name: 'NAME=value assignments where the name says password, secret, token or key',
    kind: (groups) => kindOfName(groups.name ?? ''),
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(?<name>${SECRET_NAME})["']?\s*(?::=|=>|=)\s*(?:(?<vq>["'])(?<quoted>[^"'\n]{1,2000})\k<vq>|(?<secret>${BARE_VALUE}))`,
      'dgi',
    ),
    accept: (secret, groups) => namesASecret(groups.name ?? '', secret) && isRealValue(secret),
    requires: SECRET_NAME_PART,
  },
  {
    // YAML and log style `db_password: hunter22`. Prose such as "Password: Sorry, try again." stays:
    // a bare value after a colon must look made, not written (a digit or symbol among letters).
    name: 'NAME: value lines where the name says password, secret, token or key',
    kind: (groups) => kindOfName(groups.name ?? ''),
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])(?<name>${SECRET_NAME}):[ \t]+(?:(?<vq>["'])(?<quoted>[^"'\n]{1,2000})\k<vq>|(?<secret>${BARE_VALUE}))`,
      'dgi',
    ),
    accept: (secret, groups) =>
      namesASecret(groups.name ?? '', secret) &&
      isRealValue(secret) &&
      (groups.quoted !== undefined || looksMade(secret, 6)),
    requires: SECRET_NAME_PART,
  },
  {
    name: 'signatures in shared-access URLs (sig=)',
    kind: 'sas-signature',
    pattern: /[?&]sig=(?<secret>[^&\s"'<>#]+)/dg,
    accept: isRealValue,
  },
  {
    name: 'command-line flags that carry a secret (--password x, -p=x)',
    kind: (groups) => kindOfName(groups.name ?? ''),
    pattern:
      /(?<![A-Za-z0-9_-])--(?<name>[a-z-]{0,40}(?:password|passwd|secret|token|api-key|apikey|access-key))[ \t]+(?:(?<vq>["'])(?<quoted>[^"'\n]{1,500})\k<vq>|(?<secret>[^\s"'-][^\s"']*))/dgi,
    accept: isRealValue,
    requires: SECRET_NAME_PART,
  },
];

/** The `secret` group's span of a match (the quoted value wins), or the whole match. */
function spanOf(match: RegExpExecArray): [number, number] {
  const indices = match.indices!;
  const groups = indices.groups ?? {};
  const span = groups.quoted ?? groups.secret ?? indices[0]!;
  return [span[0], span[1]];
}

function contextFindings(text: string): Finding[] {
  const found: Finding[] = [];
  for (const rule of CONTEXT_RULES) {
    if (rule.requires && !rule.requires.test(text)) continue;
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const groups = (match.groups ?? {}) as Record<string, string | undefined>;
      const [start, end] = spanOf(match as RegExpExecArray);
      if (end <= start) continue;
      const secret = text.slice(start, end);
      if (secret.startsWith(SECRET_MARKER_PREFIX)) continue;
      if (rule.accept && !rule.accept(secret, groups)) continue;
      if (rule.name.startsWith('Cookie')) {
        found.push(...cookieFindings(secret, start));
        continue;
      }
      found.push({ start, end, kind: typeof rule.kind === 'string' ? rule.kind : rule.kind(groups) });
    }
  }
  return found;
}

/** Each cookie's value, names and attributes kept. */
function cookieFindings(value: string, offset: number): Finding[] {
  const found: Finding[] = [];
  for (const pair of value.matchAll(/(?:^|;\s*)([^=;\s]+)=([^;]*)/dg)) {
    const [start, end] = pair.indices![2]!;
    const value = pair[2]!.trim();
    // A session id is long or made; `theme=dark` is no secret.
    if (
      COOKIE_ATTRIBUTES.test(pair[1]!) ||
      end <= start ||
      !isRealValue(value) ||
      !(value.length >= 16 || looksMade(value, 8))
    )
      continue;
    found.push({ start: offset + start, end: offset + end, kind: 'cookie' });
  }
  return found;
}

// --------------------------------------------------------------------- scan

/**
 * Where the secrets of a text are. Overlapping findings become one. A
 * rule-set finding that holds a context finding gives way to it (a whole
 * database URL to only its password, `aws_secret_access_key = …` to only the
 * value), so the host and the setting's name stay readable; and one that
 * holds a marker already is no finding, so redacting twice changes nothing.
 */
export function findSecrets(text: string): Finding[] {
  if (text.length < 8) return [];
  const context = contextFindings(text);
  const markers = [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const holds = (outer: { start: number; end: number }, inner: { start: number; end: number }) =>
    inner.start < outer.end && inner.end > outer.start;
  const wide = secretlintFindings(text).filter(
    (f) => !context.some((c) => holds(f, c)) && !markers.some((m) => holds(f, m)),
  );
  const all = [...context, ...wide].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const f of all) {
    const last = merged.at(-1);
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ ...f });
  }
  return merged;
}

const MARKER = /<redacted:[a-z0-9-]+>/g;

export interface Redaction<T> {
  value: T;
  /** Whether anything was replaced. */
  redacted: boolean;
}

/** `text` with every secret replaced by a marker naming its kind. */
export function redactText(text: string): Redaction<string> {
  const found = findSecrets(text);
  if (found.length === 0) return { value: text, redacted: false };
  let out = '';
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.start) + secretMarker(f.kind);
    at = f.end;
  }
  out += text.slice(at);
  return { value: out, redacted: true };
}

/** Any JSON value with every string, and every object key, redacted. */
export function redactValue(value: unknown): Redaction<unknown> {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) {
    const parts = value.map(redactValue);
    return { value: parts.map((p) => p.value), redacted: parts.some((p) => p.redacted) };
  }
  if (value !== null && typeof value === 'object') {
    let redacted = false;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Keys are text too (environment names); a value under a name that says "secret" is one whole.
      const name = redactText(key);
      const part =
        typeof inner === 'string' && namesASecret(key, inner) && isRealValue(inner.trim())
          ? { value: secretMarker('secret-value'), redacted: true }
          : redactValue(inner);
      out[name.value] = part.value;
      redacted ||= part.redacted || name.redacted;
    }
    return { value: out, redacted };
  }
  return { value, redacted: false };
}

/**
 * A write body with every string (nested ones and object keys too)
 * redacted, and the top-level fields that had something replaced, in body
 * order.
 */
export function redactBody<T extends Record<string, unknown>>(body: T): { body: T; redacted: string[] } {
  const out: Record<string, unknown> = {};
  const redacted: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    const part = redactValue(value);
    out[field] = part.value;
    if (part.redacted) redacted.push(field);
  }
  return { body: out as T, redacted };
}

/**
 * The rules the scanner runs: each context rule's name and pattern, and each
 * rule-set rule's id and code, so a changed rule changes the list (the
 * stored-record scan runs again for a new list).
 */
export const SECRET_RULE_NAMES: readonly string[] = [
  ...CONTEXT_RULES.map((rule) => `${rule.name}\t${rule.pattern.source}`),
  ...(recommendedRules as unknown as SecretlintRuleCreator[]).map(
    (rule) => `${rule.meta.id}\t${rule.create.toString()}`,
  ),
];
