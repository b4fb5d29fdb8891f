/**
 * Secrets never stored: well-known secret shapes in contribution text are
 * replaced with a marker before a write is queued, so the original reaches
 * neither the queue, the database, the projections nor a log line
 * (docs/api.md, Decisions). The receipt names the fields that were
 * redacted. Search queries go through the same function, so a pasted error
 * carrying the agent's own token matches the stored literal.
 *
 * The marker has the shape of the search normalizer's placeholders
 * (`<path>`, `<ip>`, …), so the normalizer treats it like any other variable
 * part and key-line word counts ignore it.
 *
 * Each rule is one shape with a real-world prefix or context; long hex runs,
 * UUIDs and commit hashes carry none and stay. Rules are ordered so that
 * the wider shapes (a PEM block, a header) go first.
 */
export const SECRET_MARKER = '<redacted>';

interface SecretRule {
  /** What the rule finds; shown in docs/api.md. */
  name: string;
  pattern: RegExp;
  /** The text that replaces a match; by default the whole match becomes the marker. */
  replace?: (match: string, ...groups: string[]) => string;
}

const M = SECRET_MARKER;

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

export const SECRET_RULES: readonly SecretRule[] = [
  {
    // Whole PEM private-key blocks, also inside JSON strings ("\n" escapes), and a block cut off by the paste.
    name: 'PEM private-key blocks',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
  },
  {
    name: 'Authorization and Proxy-Authorization header values',
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(bearer|basic|token|digest|negotiate|ntlm|aws4-hmac-sha256|apikey)\s+)?([^\s"',;]+(?:,\s*[a-z]+=[^\s"',;]+)*)/gi,
    replace: (_m, head: string, scheme: string | undefined) => `${head}${scheme ? `${scheme} ` : ''}${M}`,
  },
  {
    name: 'Cookie and Set-Cookie header values',
    pattern: /\b((?:set-)?cookie["']?\s*:\s*)([^\n"]*)/gi,
    replace: (_m, head: string, value: string) => head + value.replace(
      /(^|;\s*)([^=;\s]+)=([^;]*)/g,
      (pair: string, sep: string, name: string) => (COOKIE_ATTRIBUTES.test(name) ? pair : `${sep}${name}=${M}`),
    ),
  },
  {
    name: 'Bearer tokens',
    pattern: /\b(bearer)\s+([A-Za-z0-9._~+/=-]+)/gi,
    replace: (m, scheme: string, token: string) => (looksLikeToken(token) ? `${scheme} ${M}` : m),
  },
  {
    name: 'Basic credentials',
    pattern: /\b(basic)\s+([A-Za-z0-9+/]+={0,2})(?![A-Za-z0-9+/=])/gi,
    replace: (m, scheme: string, token: string) => (isBasicCredential(token) ? `${scheme} ${M}` : m),
  },
  {
    // scheme://user:password@host: the user stays, the password goes.
    name: 'passwords in URLs',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'<>]*):([^\s/?#@"'<>]+)@/gi,
    replace: (_m, head: string) => `${head}:${M}@`,
  },
  { name: 'JSON Web Tokens', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g },
  { name: 'AWS access key ids', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|AKPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16}\b/g },
  {
    name: 'AWS secret access keys and session tokens (by their setting name)',
    pattern: /\b(aws_secret_access_key|aws_session_token|secretaccesskey|sessiontoken)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{20,}/gi,
    replace: (_m, name: string, sep: string) => `${name}${sep}${M}`,
  },
  { name: 'Google API keys', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: 'Google OAuth access tokens and client secrets', pattern: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[0-9A-Za-z_-]{20,})/g },
  { name: 'GitHub tokens', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { name: 'GitLab tokens', pattern: /\bgl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|agent)-[0-9A-Za-z_-]{20,}/g },
  { name: 'Slack tokens and webhooks', pattern: /\b(?:xox[abposre]-[0-9A-Za-z-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+)/g },
  { name: 'Stripe secret and restricted keys, webhook secrets', pattern: /\b(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{20,})\b/g },
  { name: 'npm, PyPI, OpenAI and Anthropic tokens', pattern: /\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,})/g },
  { name: 'SendGrid keys', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  {
    // password=…, "api_key": "…": the name stays, the value goes. Only `=` or a quoted JSON/YAML key,
    // so prose such as "password authentication failed" is untouched.
    name: 'password, secret, token and key assignments',
    pattern: /((?:^|[^A-Za-z0-9_])["']?(?:password|passwd|pwd|secret|client_secret|api_?key|apikey|access_?token|auth_?token|refresh_?token|private_?key)["']?)(\s*=\s*|["']\s*:\s*["'])([^\s"'&;,<]{4,})/gi,
    replace: (_m, name: string, sep: string) => `${name}${sep}${M}`,
  },
];

export interface Redaction<T> {
  value: T;
  /** Whether anything was replaced. */
  redacted: boolean;
}

/** `text` with every secret shape replaced by the marker. */
export function redactText(text: string): Redaction<string> {
  let out = text;
  for (const rule of SECRET_RULES) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      if (!rule.replace) return M;
      // String.replace passes the groups, then the offset, the whole text (and named groups).
      const groups = rest.slice(0, rest.findIndex((x) => typeof x === 'number')) as string[];
      return rule.replace(match, ...groups);
    });
  }
  return { value: out, redacted: out !== text };
}

function redactValue(value: unknown): Redaction<unknown> {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) {
    const parts = value.map(redactValue);
    return { value: parts.map((p) => p.value), redacted: parts.some((p) => p.redacted) };
  }
  if (value !== null && typeof value === 'object') {
    let redacted = false;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const part = redactValue(inner);
      out[key] = part.value;
      redacted ||= part.redacted;
    }
    return { value: out, redacted };
  }
  return { value, redacted: false };
}

/**
 * A write body with every string (nested ones too) redacted, and the
 * top-level fields that had something replaced, in body order.
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
