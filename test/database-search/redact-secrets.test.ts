import { describe, expect, it } from 'vitest';
import { findSecrets, redactBody, redactText, secretMarker } from '../../core/redact-secrets.ts';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import { chars, leaks, ordinaryLines, p, secretCases } from '../helpers/secret-corpus.ts';

const CASES = secretCases();
const ORDINARY = ordinaryLines();
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

describe('the secret scanner', () => {
  it('has a corpus of at least 150 secret shapes and 100 ordinary lines', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CASES.map((c) => c.shape)).size).toBe(CASES.length);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(100);
  });

  it.each(CASES.map((c) => [c.shape, c] as const))('replaces a %s with a marker naming its kind', (_shape, c) => {
    const result = redactText(c.text);
    expect(result.redacted).toBe(true);
    expect(leaks(c, result.value)).toBeNull();
    expect(result.value).toMatch(/<redacted:[a-z0-9-]+>/);
  });

  it.each(ORDINARY.map((line) => [line] as const))('keeps %s as sent', (line) => {
    expect(redactText(line)).toEqual({ value: line, redacted: false });
  });

  it('is idempotent: redacted text has nothing left to redact', () => {
    for (const c of CASES) {
      const once = redactText(c.text).value;
      expect(redactText(once), c.shape).toEqual({ value: once, redacted: false });
    }
  });

  it('keeps what tells the reader where the secret was: names, users, hosts, schemes, cookie attributes', () => {
    const pw = p(chars(ALNUM, 10), '@', chars(ALNUM, 6));
    expect(redactText(`postgres://app:${pw}@db.internal:5432/app`).value).toBe(
      `postgres://app:${secretMarker('url-password')}@db.internal:5432/app`,
    );
    expect(redactText(`DB_PASSWORD=${pw} PGPASSWORD=${pw}`).value).toBe(
      `DB_PASSWORD=${secretMarker('password')} PGPASSWORD=${secretMarker('password')}`,
    );
    expect(redactText(`export JWT_SECRET="${pw}"`).value).toBe(`export JWT_SECRET="${secretMarker('secret')}"`);
    const value = chars(ALNUM, 40);
    expect(redactText(`X-Api-Key: ${value}`).value).toBe(`X-Api-Key: ${secretMarker('header-credential')}`);
    expect(redactText(`Authorization: Bearer ${value}`).value).toBe(
      `Authorization: Bearer ${secretMarker('authorization')}`,
    );
    expect(redactText(`Set-Cookie: sid=${value}; Path=/; HttpOnly`).value).toBe(
      `Set-Cookie: sid=${secretMarker('cookie')}; Path=/; HttpOnly`,
    );
    expect(redactText(`aws_secret_access_key = ${chars(ALNUM, 40)}`).value).toBe(
      `aws_secret_access_key = ${secretMarker('secret')}`,
    );
  });

  it('runs the maintained rule set: shapes only its provider rules know are found and named by them', () => {
    const notion = p('nt', 'n_', chars('0123456789', 11), chars(ALNUM, 35));
    const databricks = p('da', 'pi', chars('0123456789abcdef', 32));
    const shopify = p('shp', 'at_', chars('0123456789abcdef', 32));
    expect(findSecrets(`token ${notion}`).map((f) => f.kind)).toEqual(['notion-integration-token']);
    expect(redactText(`DATABRICKS host answered 403 for ${databricks}`).value).toBe(
      `DATABRICKS host answered 403 for ${secretMarker('databricks-personal-access-token')}`,
    );
    expect(redactText(`shop said ${shopify}`).value).toBe(`shop said ${secretMarker('shopify-key')}`);
  });

  it('names the top-level fields that held a secret: environment keys and values, tags and nested strings', () => {
    const gh = p('gh', 'p_', chars(ALNUM, 36));
    const pw = p(chars(ALNUM, 12), '9!');
    const { body, redacted } = redactBody({
      title: 'Push refused',
      error_literal: `remote: Invalid username or token ${gh}`,
      body: 'nothing secret here',
      environment: { DB_PASSWORD: pw, [`KEY_${gh}`]: 'x', os: 'linux', TOKENIZERS_PARALLELISM: 'false' },
      tags: ['git', gh],
    });
    expect(redacted).toEqual(['error_literal', 'environment', 'tags']);
    expect(body).toEqual({
      title: 'Push refused',
      error_literal: `remote: Invalid username or token ${secretMarker('github-token')}`,
      body: 'nothing secret here',
      environment: {
        DB_PASSWORD: secretMarker('secret-value'),
        [`KEY_${secretMarker('github-token')}`]: 'x',
        os: 'linux',
        TOKENIZERS_PARALLELISM: 'false',
      },
      tags: ['git', secretMarker('github-token')],
    });
    expect(JSON.stringify(body)).not.toContain(gh);
    expect(JSON.stringify(body)).not.toContain(pw);
  });

  it('answers an empty list when nothing was redacted', () => {
    expect(
      redactBody({ title: 'x', n: 3, flag: true, none: null, credential_hash: `sha256:${'ab'.repeat(32)}` }).redacted,
    ).toEqual([]);
  });

  it('gives search the same text for two tokens of one shape', () => {
    const a = normalizeLiteral(
      redactText(`remote: Invalid username or token ${p('gh', 'p_', chars(ALNUM, 36))}`).value,
    );
    const b = normalizeLiteral(
      redactText(`remote: Invalid username or token ${p('gh', 'p_', chars(ALNUM, 36))}`).value,
    );
    expect(a).toBe('remote: invalid username or token <redacted:github-token>');
    expect(b).toBe(a);
  });
});
