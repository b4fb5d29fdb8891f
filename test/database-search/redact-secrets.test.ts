import { describe, expect, it } from 'vitest';
import { redactBody, redactText, SECRET_MARKER } from '../../core/redact-secrets.ts';
import { isKeyLine, normalizeLiteral } from '../../database-search/normalize.ts';

const M = SECRET_MARKER;

/**
 * Fake secrets of the real shapes, built at run time from a seeded
 * generator so that no literal in the repository looks like a credential.
 */
let state = 7;
function chars(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`;
const B64URL = `${ALNUM}_-`;
const p = (...parts: string[]) => parts.join('');

const awsKeyId = p('AK', 'IA', chars(`${UPPER}234567`, 16));
const awsSecret = chars(`${ALNUM}/+`, 40);
const gcpKey = p('AI', 'za', chars(B64URL, 35));
const githubClassic = p('gh', 'p_', chars(ALNUM, 36));
const githubFine = p('github', '_pat_', chars(`${ALNUM}_`, 82));
const gitlab = p('gl', 'pat-', chars(B64URL, 20));
const slackBot = p('xo', 'xb-', chars('0123456789', 12), '-', chars('0123456789', 13), '-', chars(ALNUM, 24));
const slackHook = p('https://hooks.', 'slack.com/services/T', chars(UPPER, 8), '/B', chars(UPPER, 8), '/', chars(ALNUM, 24));
const stripe = p('sk', '_live_', chars(ALNUM, 24));
const jwt = p('ey', 'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0.', chars(B64URL, 43));
const bearer = chars(B64URL, 43);
const basic = Buffer.from(p('deploy', ':', chars(ALNUM, 12))).toString('base64');
const pemBody = chars(`${ALNUM}+/`, 64);
const pem = p('-----BEGIN ', 'RSA PRIVATE KEY-----\n', pemBody, '\n', pemBody, '\n-----END ', 'RSA PRIVATE KEY-----');
const dbPassword = chars(ALNUM, 14);

/** [shape, text as pasted, text as stored] */
const SECRETS: [string, string, string][] = [
  ['AWS access key id', `InvalidClientTokenId: The security token included in the request is invalid (key ${awsKeyId})`,
    `InvalidClientTokenId: The security token included in the request is invalid (key ${M})`],
  ['AWS secret access key by its setting', `aws_secret_access_key = ${awsSecret}`, `aws_secret_access_key = ${M}`],
  ['Google API key', `https://maps.googleapis.com/maps/api/geocode/json?key=${gcpKey} returned REQUEST_DENIED`,
    `https://maps.googleapis.com/maps/api/geocode/json?key=${M} returned REQUEST_DENIED`],
  ['GitHub classic token', `remote: Invalid username or token ${githubClassic}`, `remote: Invalid username or token ${M}`],
  ['GitHub fine-grained token', `GITHUB_TOKEN=${githubFine} gh auth status`, `GITHUB_TOKEN=${M} gh auth status`],
  ['GitLab token', `export CI_TOKEN=${gitlab}`, `export CI_TOKEN=${M}`],
  ['Slack bot token', `slack_sdk.errors.SlackApiError: invalid_auth (token ${slackBot})`, `slack_sdk.errors.SlackApiError: invalid_auth (token ${M})`],
  ['Slack webhook', `POST ${slackHook} 404 no_service`, `POST ${M} 404 no_service`],
  ['Stripe secret key', `Stripe::AuthenticationError: Invalid API Key provided: ${stripe}`, `Stripe::AuthenticationError: Invalid API Key provided: ${M}`],
  ['JWT', `jwt expired: ${jwt}`, `jwt expired: ${M}`],
  ['Authorization header (bearer)', `curl -H "Authorization: Bearer ${bearer}" https://api.example.com`,
    `curl -H "Authorization: Bearer ${M}" https://api.example.com`],
  ['Authorization header (basic)', `Authorization: Basic ${basic}`, `Authorization: Basic ${M}`],
  ['bearer token in a log line', `401 Unauthorized: bearer ${bearer} rejected`, `401 Unauthorized: bearer ${M} rejected`],
  ['basic credential in a log line', `sent basic ${basic} to the proxy`, `sent basic ${M} to the proxy`],
  ['password in a URL', `Error: connect ECONNREFUSED postgres://app:${dbPassword}@db.internal:5432/app`,
    `Error: connect ECONNREFUSED postgres://app:${M}@db.internal:5432/app`],
  ['PEM private key', `key file:\n${pem}\nthen: error:0909006C:PEM routines`, `key file:\n${M}\nthen: error:0909006C:PEM routines`],
  ['PEM private key inside JSON', `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${pemBody}\\n-----END PRIVATE KEY-----\\n"}`,
    `{"private_key": "${M}\\n"}`],
  ['Cookie header', `Cookie: sessionid=${chars(ALNUM, 32)}; csrftoken=${chars(ALNUM, 32)}`, `Cookie: sessionid=${M}; csrftoken=${M}`],
  ['Set-Cookie keeps its attributes', `Set-Cookie: sid=${chars(ALNUM, 24)}; Path=/; HttpOnly`, `Set-Cookie: sid=${M}; Path=/; HttpOnly`],
  ['password assignment', `DATABASE_PASSWORD=x password=${dbPassword} sslmode=require`, `DATABASE_PASSWORD=x password=${M} sslmode=require`],
  ['JSON secret', `{"client_secret": "${dbPassword}", "grant_type": "client_credentials"}`,
    `{"client_secret": "${M}", "grant_type": "client_credentials"}`],
];

/** Text that looks random but is no secret, and must be stored as sent. */
const KEPT: [string, string][] = [
  ['a commit hash', 'fatal: reference is not a tree: 3f4e1a2b9c0d8e7f6a5b4c3d2e1f0a9b8c7d6e5f'],
  ['a short commit hash', 'error: pathspec 3f4e1a2 did not match any file(s) known to git'],
  ['a UUID', 'Job 123e4567-e89b-12d3-a456-426614174000 failed'],
  ['a container id', 'Error response from daemon: No such container: 4c01db0b339c4e1c8e7d9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c'],
  ['an image digest', 'manifest unknown: sha256:9b2a28eb47540823042a2ba401386845089bb7b62a9637d55816132c4c3c36eb'],
  ['a hex address', 'panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation addr=0x0 pc=0x4a5b6c]'],
  ['prose about passwords', 'FATAL:  password authentication failed for user "postgres"'],
  ['prose about bearer auth', 'WWW-Authenticate: Bearer realm="api", error="invalid_token"'],
  ['the word after Basic', 'Basic authentication failed for user deploy'],
  ['a URL without a password', 'Could not resolve host: https://user@github.com/org/repo.git'],
  ['an npm integrity hash', 'npm ERR! sha512-Zm9vYmFyYmF6cXV4 integrity checksum failed'],
  ['a Kubernetes pod name', 'Back-off restarting failed container api in pod api-7d9f8b6c5d-x2k4p_default(2f0c1b2a-1111-2222-3333-444455556666)'],
  ['a Python hex id', '<object object at 0x7f3b2c1d0e90>'],
  ['a password prompt', 'Password: Sorry, try again.'],
];

describe('secret redaction at write time', () => {
  it.each(SECRETS)('replaces a %s with the marker', (_shape, pasted, stored) => {
    const result = redactText(pasted);
    expect(result.value).toBe(stored);
    expect(result.redacted).toBe(true);
  });

  it.each(KEPT)('keeps %s as sent', (_shape, text) => {
    expect(redactText(text)).toEqual({ value: text, redacted: false });
  });

  it('is idempotent: redacted text has nothing left to redact', () => {
    for (const [, pasted] of SECRETS) {
      const once = redactText(pasted).value;
      expect(redactText(once)).toEqual({ value: once, redacted: false });
    }
  });

  it('names the top-level fields that held a secret, nested ones by their field', () => {
    const { body, redacted } = redactBody({
      title: 'Push refused',
      error_literal: `remote: Invalid username or token ${githubClassic}`,
      body: 'nothing secret here',
      environment: { ci: `GITLAB=${gitlab}`, os: 'linux' },
      tags: ['git', stripe],
    });
    expect(redacted).toEqual(['error_literal', 'environment', 'tags']);
    expect(body).toEqual({
      title: 'Push refused',
      error_literal: `remote: Invalid username or token ${M}`,
      body: 'nothing secret here',
      environment: { ci: `GITLAB=${M}`, os: 'linux' },
      tags: ['git', M],
    });
    expect(JSON.stringify(body)).not.toContain(githubClassic);
  });

  it('answers an empty list when nothing was redacted', () => {
    expect(redactBody({ title: 'x', n: 3, flag: true, none: null }).redacted).toEqual([]);
  });

  it('gives the normalizer a placeholder it treats like any other variable part', () => {
    const a = normalizeLiteral(redactText(`remote: Invalid username or token ${githubClassic}`).value);
    const b = normalizeLiteral(redactText(`remote: Invalid username or token ${p('gh', 'p_', chars(ALNUM, 36))}`).value);
    expect(a).toBe('remote: invalid username or token <redacted>');
    expect(b).toBe(a);
    // Placeholders are no words: a line of one word and the marker cannot identify an error alone.
    expect(isKeyLine(normalizeLiteral(`token ${M} x`))).toBe(false);
  });
});
