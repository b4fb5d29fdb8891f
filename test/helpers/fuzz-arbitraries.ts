/**
 * fast-check arbitraries for the fuzz (test/faults/fuzz.test.ts): malformed
 * path pieces, query strings, header values, field values and bodies, and
 * the pieces of raw HTTP requests. Stateless; the test adds real ids and
 * credentials.
 */
import fc from 'fast-check';
import { newSecret } from './client.ts';

/** Characters Node's client lets through in a header value or path (Latin-1 without controls). */
export const latin1 = fc
  .integer({ min: 0x21, max: 0xff })
  .filter((c) => c !== 0x7f)
  .map((c) => String.fromCharCode(c));
export const junk = (maxLength: number) => fc.string({ unit: latin1, maxLength });
/** Any Unicode, including NUL and other controls. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '\u202e', '\ufeff', '🧨'.repeat(50), 'null', ''),
);

export const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'));
  }
};

export const idSegment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...['prb', 'sol', 'dsc', 'rpl', 'agt', 'inb'].map((p) => `${p}_00000000000000000000000000`),
    ),
  },
  { weight: 12, arbitrary: fc.constant(null) }, // the real id the path names, filled in by the test
  { weight: 2, arbitrary: anyText.map(encode) },
  { weight: 1, arbitrary: junk(30) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '..',
      '%2e%2e',
      '..%2f..%2fetc%2fpasswd',
      '%00',
      '%',
      '%zz',
      '%c0%af',
      '%ff%fe',
      'a'.repeat(5000),
      '',
      ' ',
      '.json',
      '.md',
    ),
  },
);

export const suffix = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      '/',
      '//',
      '.json',
      '.md',
      '.html',
      '%00',
      ';x=1',
      '/..',
      '/%2e%2e/api/ops/status',
      '?',
      '#frag',
      '%20',
    ),
  },
);

export const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '20',
    '21',
    '100',
    '101',
    '999999999',
    '1000000000',
    '99999999999999999999',
    '1e3',
    '2.0',
    '0x10',
    ' 1',
    '',
    '%',
    '%zz',
    '%E0%A4%A',
    '%FF',
    'null',
    '[]',
  ),
  anyText.map(encode),
  junk(20).map((s) => s.replace(/[#&]/g, '')),
);
export const queryKey = fc.oneof(
  fc.constantFrom('page', 'limit', 'revision', 'since', 'q', 'mode', 'page[]', '__proto__', 'constructor'),
  anyText.map(encode),
);
export const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 5 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

export const methods = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) }, // the endpoint's own method
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PATCH',
      'PUT',
      'DELETE',
      'OPTIONS',
      'PROPFIND',
      'PURGE',
      'SEARCH',
      'LOCK',
    ),
  },
);

/** A body that passes or nearly passes an endpoint's schema, with fuzzed values. */
export const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('A sensible title', 'Some body text.', 'webpack', 'worked') },
  { weight: 2, arbitrary: anyText },
  // PostgreSQL stores no U+0000 in text or jsonb: every layer above it must say so.
  { weight: 1, arbitrary: fc.tuple(anyText, anyText).map(([a, b]) => `${a}\u0000${b}`) },
  { weight: 1, arbitrary: fc.constantFrom({ 'k\u0000': 'v' }, { k: 'v\u0000' }, ['\u0000'], ['ok', 'n\u0000l']) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -0, 2 ** 31, 2 ** 53 + 2, -1, 0, 1.5, true, null, [], {}) },
  { weight: 1, arbitrary: fc.constant(null).map(() => 'x'.repeat(25_000)) },
);
export const fieldNames = [
  'title',
  'body',
  'product',
  'error_literal',
  'environment',
  'tags',
  'base_revision',
  'problem_id',
  'applicability',
  'limitations',
  'signal',
  'note',
  'solution_revision',
  'in_reply_to',
  'display_name',
  'bio',
  'epoch',
  'credential_hash',
  'kind',
  'target',
  'evidence',
  'handle',
  'scopes',
  'type',
  'id',
  '__proto__',
];
export const nearlyValid = fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 5 });

/** Bodies as bytes: none, JSON-ish, broken, deep, huge, binary. */
export const bodies = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: nearlyValid.map((n) => Buffer.from(JSON.stringify(n))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: anyText.map((s) => Buffer.from(s)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '{',
        '{"title":}',
        '{"a":1,}',
        "{'a':1}",
        'nul',
        'NaN',
        '"\\u0000"',
        '{"title":"a\\u0000b","body":"x","product":"p"}',
        '{"title":"\\ud800\\udc00 ok","body":"\\udc00","product":"p"}',
        '{"__proto__":{"admin":true}}',
        '[]',
        '1',
        'true',
        '\u0000\u0000',
      )
      .map((s) => Buffer.from(s)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((n) => Buffer.from('['.repeat(n) + ']'.repeat(n))) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 50_000 })
      .map((n) => Buffer.from(`{"title":${'{"a":'.repeat(n)}1${'}'.repeat(n)},"body":"b","product":"p"}`)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(900_000, 1_048_577, 1_500_000)
      .map((n) => Buffer.from(JSON.stringify({ title: 'Huge', body: 'x'.repeat(n), product: 'p' }))),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
);

export const secretArb = fc.oneof(
  fc.constant(null),
  fc.constant(null).map(() => newSecret()),
);

// Raw HTTP bytes.

export const byte = fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c));
// Weighted towards well-formed request lines and headers, so the framing cases
// (Content-Length against the body, chunked, Expect) reach the app too.
export const rawMethod = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('get', 'FOO', 'G ET', '', 'GET\u0000', 'POST\t'), junk(10)) },
);
export const rawTarget = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/api/v1',
      '/api/problems',
      '/api/public/admission',
      '/api/discussions',
      '/api/whoami',
      '/api/profile',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '/',
      '/problems/prb_00000000000000000000000000.json',
      '*',
      'http://service.test/api/v1',
      '//api//v1',
      '/api/v1?limit=%',
      '/a b',
      '/\u0000',
      '/%00',
      '/\u00ff\u00fe',
      `/${'a'.repeat(20_000)}`,
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: byte, maxLength: 40 }).map((s) => `/${s}`) },
);
export const rawVersion = fc.oneof(
  { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', 'HTTP/', '') },
);
export const rawHeader = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'Content-Length: 5',
      'Content-Length: 0',
      'Content-Length: 12',
      'Content-Length: 1048577',
      'Transfer-Encoding: chunked',
      'Content-Type: application/json',
      'Content-Type: text/plain',
      'Expect: 100-continue',
      'Idempotency-Key: fuzz:raw-request-1',
      'If-None-Match: *',
      'Origin: http://service.test',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Content-Length: -1',
      'Content-Length: abc',
      'Content-Length: 99999999999999999999',
      'Content-Length: 1e3',
      'Content-Length: 2\r\nContent-Length: 3',
      'Content-Length: 0\r\nContent-Length: 0',
      'Transfer-Encoding: chunked\r\nContent-Length: 3',
      'Transfer-Encoding: gzip, chunked',
      'Authorization: Bearer \u0000',
      'Idempotency-Key: a:\u0000bbbbbbbb',
      'If-None-Match: \u0000',
      'Origin: \u0000',
      'X-Folded: a\r\n continued',
      'Bad Header: x',
      ': empty name',
      'NoColon',
      `X-Big: ${'b'.repeat(20_000)}`,
      'Host: ',
      'Host: a\r\nHost: b',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(junk(15), fc.string({ unit: byte, maxLength: 30 }))
      .map(([n, v]) => `${n}: ${v.replace(/\r|\n/g, '')}`),
  },
);
export const rawBody = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '{"title":"x"}',
    '5\r\nhello\r\n0\r\n\r\n',
    'zz\r\nbad chunk\r\n',
    '0\r\n\r\n',
    '{',
    '{"kind":"guest","credential_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}',
    '{"title":"Raw","body":"b","product":"p"}',
    'c\r\n{"bio":"raw"}\r\n0\r\n\r\n',
  ),
  fc.string({ unit: byte, maxLength: 60 }),
);
