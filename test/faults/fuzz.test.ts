/**
 * Property tests with fast-check: malformed methods, paths, query strings,
 * headers (Authorization, Idempotency-Key, Content-Type, Content-Length,
 * If-None-Match, Origin) and bodies (bad JSON, deep nesting, huge strings,
 * wrong types, Unicode, NUL bytes) thrown at every endpoint the service
 * lists in GET /api/v1 and its OpenAPI document, and raw malformed HTTP on
 * the socket. Every dependency is up, so no answer may be 5xx; every error
 * body is the Error shape; no answer echoes a bearer secret.
 *
 * Runs are bounded (numRuns) and reproducible: a failure prints its seed;
 * FUZZ_SEED replays it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash, sha256Hex } from '../../core/hash.ts';
import { admit, newSecret, problemBody, send, type Agent } from '../helpers/client.ts';
import { contractViolations, sendRaw, sendRequest, type Probe } from '../helpers/http-probe.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const OPERATOR_TOKEN = newSecret();

let stack: Stack;
let port: number;
let agents: Agent[];
let endpoints: { method: string; template: string }[];
/** Real ids, so fuzzed paths and bodies reach existing records. */
let ids: Record<'problem' | 'solution' | 'discussion' | 'reply' | 'agent' | 'inbox', string>;

beforeAll(async () => {
  stack = await startStack({
    READ_RATE_LIMIT: '1000000', WRITE_RATE_LIMIT: '1000000', ADMISSION_RATE_LIMIT: '1000000',
    OPERATOR_TOKEN_SHA256: sha256Hex(OPERATOR_TOKEN), COMMIT_TIMEOUT_MS: '10000',
  });
  port = Number(new URL(stack.base).port);
  agents = [await admit(stack.base), await admit(stack.base), await admit(stack.base, 'guest')];
  const [a] = agents as [Agent];
  const problem = await send(stack.base, a, 'POST', '/api/problems', problemBody());
  const solution = await send(stack.base, a, 'POST', '/api/solutions', { problem_id: problem.body.resource.id, body: 'Try this.' });
  const discussion = await send(stack.base, a, 'POST', '/api/discussions', { title: 'Fuzz target', body: 'Talk.' });
  const reply = await send(stack.base, agents[1]!, 'POST', `/api/discussions/${discussion.body.resource.id}/replies`, { body: 'Hi.' });
  const inbox = await fetch(`${stack.base}/api/inbox`, { headers: { authorization: `Bearer ${a.secret}` } }).then((r) => r.json());
  ids = {
    problem: problem.body.resource.id, solution: solution.body.resource.id, discussion: discussion.body.resource.id,
    reply: reply.body.resource.id, agent: a.id, inbox: inbox.items[0].id,
  };

  // Every endpoint, from the service's own lists: the index and the OpenAPI document.
  const index = await fetch(`${stack.base}/api/v1`).then((r) => r.json()) as { paths: string[] };
  const openapi = await fetch(`${stack.base}/api/v1/openapi.json`).then((r) => r.json()) as { paths: Record<string, Record<string, unknown>> };
  const fromDocument = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.keys(item).filter((m) => m !== 'options').map((m) => `${m.toUpperCase()} ${path}`));
  expect(index.paths.slice().sort()).toEqual(fromDocument.slice().sort());
  // Paths served but not part of the public document.
  const extra = ['GET /', 'GET /_astro/{id}', 'GET /metrics', 'POST /api/ops/rebuild', 'GET /api/ops/status'];
  endpoints = [...index.paths, ...extra].map((line) => {
    const [method, template] = line.split(' ') as [string, string];
    return { method, template };
  });
  expect(endpoints.length).toBeGreaterThan(30);
});
afterAll(() => stack.close());

// ---------------------------------------------------------------- arbitraries

/** Characters Node's client lets through in a header value or path (Latin-1 without controls). */
const latin1 = fc.integer({ min: 0x21, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c));
const junk = (maxLength: number) => fc.string({ unit: latin1, maxLength });
/** Any Unicode, including NUL and other controls. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '\u202e', '\ufeff', '🧨'.repeat(50), 'null', ''),
);

const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'));
  }
};

const idSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...['prb', 'sol', 'dsc', 'rpl', 'agt', 'inb'].map((p) => `${p}_00000000000000000000000000`)) },
  { weight: 12, arbitrary: fc.constant(null) }, // a real id, filled in below
  { weight: 2, arbitrary: anyText.map(encode) },
  { weight: 1, arbitrary: junk(30) },
  { weight: 1, arbitrary: fc.constantFrom('..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '%', '%zz', '%c0%af', '%ff%fe', 'a'.repeat(5000), '', ' ', '.json', '.md') },
);

const suffix = fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 8, arbitrary: fc.constantFrom('/', '//', '.json', '.md', '.html', '%00', ';x=1', '/..', '/%2e%2e/api/ops/status', '?', '#frag', '%20') });

const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '20', '21', '100', '101', '999999999', '1000000000', '99999999999999999999', '1e3', '2.0', '0x10', ' 1', '', '%', '%zz', '%E0%A4%A', '%FF', 'null', '[]'),
  anyText.map(encode),
  junk(20).map((s) => s.replace(/[#&]/g, '')),
);
const queryKey = fc.oneof(fc.constantFrom('page', 'limit', 'revision', 'since', 'q', 'mode', 'page[]', '__proto__', 'constructor'), anyText.map(encode));
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }).map((pairs) =>
  pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '');

const methods = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) }, // the endpoint's own method
  { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND', 'PURGE', 'SEARCH', 'LOCK') },
);

/** A body that passes or nearly passes an endpoint's schema, with fuzzed values. */
const fieldValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('A sensible title', 'Some body text.', 'webpack', 'worked') },
  { weight: 2, arbitrary: anyText },
  // PostgreSQL stores no U+0000 in text or jsonb: every layer above it must say so.
  { weight: 1, arbitrary: fc.tuple(anyText, anyText).map(([a, b]) => `${a}\u0000${b}`) },
  { weight: 1, arbitrary: fc.constantFrom({ 'k\u0000': 'v' }, { k: 'v\u0000' }, ['\u0000'], ['ok', 'n\u0000l']) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -0, 2 ** 31, 2 ** 53 + 2, -1, 0, 1.5, true, null, [], {}) },
  { weight: 1, arbitrary: fc.constant(null).map(() => 'x'.repeat(25_000)) },
);
const fieldNames = ['title', 'body', 'product', 'error_literal', 'environment', 'tags', 'base_revision', 'problem_id', 'applicability',
  'limitations', 'signal', 'note', 'solution_revision', 'in_reply_to', 'display_name', 'bio', 'epoch', 'credential_hash', 'kind',
  'target', 'evidence', 'handle', 'scopes', 'type', 'id', '__proto__'];
const nearlyValid = fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 5 });

/** The endpoint's own valid body (fresh where it must be unique), to be mutated field by field. */
function validBodyFor(method: string, template: string): Record<string, unknown> | null {
  const bodies: Record<string, () => Record<string, unknown>> = {
    'POST /api/problems': () => problemBody(),
    'PATCH /api/problems/{id}': () => ({ base_revision: 1, title: 'Edited by the fuzzer' }),
    'POST /api/solutions': () => ({ problem_id: ids.problem, body: 'A solution' }),
    'PATCH /api/solutions/{id}': () => ({ base_revision: 1, body: 'Edited solution' }),
    'POST /api/solutions/{id}/outcomes': () => ({ signal: 'worked', note: 'Fine' }),
    'POST /api/discussions': () => ({ title: 'Fuzzed discussion', body: 'Body' }),
    'POST /api/discussions/{id}/replies': () => ({ body: 'A reply', in_reply_to: ids.reply }),
    'POST /api/inbox/{id}/ack': () => ({}),
    'PATCH /api/profile': () => ({ display_name: 'Fuzzy', bio: 'I fuzz.' }),
    'POST /api/credentials/rotate': () => ({ epoch: 1, credential_hash: credentialHash(newSecret()) }),
    'POST /api/credentials/revoke': () => ({}),
    'POST /api/feedback-reports': () => ({ kind: 'feedback', target: { type: 'problem', id: ids.problem }, body: 'Feedback', evidence: ['https://example.test'] }),
    'POST /api/public/admission': () => ({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
    'POST /api/ops/rebuild': () => ({ type: 'problem', id: ids.problem }),
  };
  return bodies[`${method} ${template}`]?.() ?? null;
}

/** The real id a path template names by default. */
function realIdFor(template: string): string {
  if (template.includes('/inbox/')) return ids.inbox;
  if (template.includes('/replies')) return ids.discussion;
  for (const kind of ['problem', 'solution', 'discussion', 'agent'] as const) if (template.includes(`/${kind}s/`)) return ids[kind];
  return ids.problem;
}

/** Bodies as bytes: none, JSON-ish, broken, deep, huge, binary. */
const bodies = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: nearlyValid.map((n) => Buffer.from(JSON.stringify(n))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: anyText.map((s) => Buffer.from(s)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{', '{"title":}', '{"a":1,}', "{'a':1}", 'nul', 'NaN', '"\\u0000"', '{"title":"a\\u0000b","body":"x","product":"p"}',
      '{"title":"\\ud800\\udc00 ok","body":"\\udc00","product":"p"}', '{"__proto__":{"admin":true}}', '[]', '1', 'true', '\u0000\u0000',
    ).map((s) => Buffer.from(s)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((n) => Buffer.from('['.repeat(n) + ']'.repeat(n))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((n) => Buffer.from(`{"title":${'{"a":'.repeat(n)}1${'}'.repeat(n)},"body":"b","product":"p"}`)) },
  { weight: 1, arbitrary: fc.constantFrom(900_000, 1_048_577, 1_500_000).map((n) => Buffer.from(JSON.stringify({ title: 'Huge', body: 'x'.repeat(n), product: 'p' }))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
);

const secretArb = fc.oneof(fc.constant(null), fc.constant(null).map(() => newSecret()));

interface Case {
  endpoint: number;
  method: string | null;
  /** A path id, or null for the real id the template names. */
  id: string | null;
  suffix: string;
  query: string;
  bearer: number; // index into the credential choices
  secret: string | null;
  authorization: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
  contentLength: 'auto' | 'zero-when-empty' | 'omit';
  ifNoneMatch: string | null;
  origin: string | null;
  body: Buffer | undefined;
  /** Use the endpoint's valid body (when it has one) with these fields replaced, instead of `body`. */
  valid: { mutations: [number, unknown][] } | null;
}

const cases: fc.Arbitrary<Case> = fc.record({
  endpoint: fc.nat(),
  method: methods,
  id: idSegment,
  suffix,
  query,
  bearer: fc.nat({ max: 9 }),
  secret: secretArb,
  authorization: fc.option(fc.oneof(junk(60), fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer a b', `Bearer ${'a'.repeat(600)}`)), { freq: 4 }),
  idempotencyKey: fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^fuzz:[A-Za-z0-9_-]{8,20}$/) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.oneof(junk(40), fc.constantFrom('', ':', 'a:b', 'x'.repeat(64) + ':' + 'y'.repeat(129), 'a:bbbbbbbb:c')) },
  ),
  contentType: fc.oneof(
    { weight: 4, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.oneof(junk(30), fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;', 'text/plain',
        'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', ';', '')),
    },
  ),
  contentLength: fc.constantFrom('auto', 'auto', 'zero-when-empty', 'omit'),
  ifNoneMatch: fc.option(fc.oneof(junk(40), fc.constantFrom('*', '"abc"', 'W/"x"', '"0-0", "1-1"', '""', ',,,')), { freq: 3 }),
  origin: fc.option(fc.oneof(junk(40), fc.constantFrom('http://service.test', 'null', 'http://evil.test', '')), { freq: 3 }),
  body: bodies,
  valid: fc.option(fc.record({ mutations: fc.array(fc.tuple(fc.nat(), fieldValue), { maxLength: 2 }) }), { freq: 2 }),
});

function probeOf(c: Case): { probe: Probe; secrets: string[] } {
  const endpoint = endpoints[c.endpoint % endpoints.length]!;
  const real = realIdFor(endpoint.template);
  // Anything outside printable ASCII is escaped, so the request passes the HTTP parser and
  // reaches the app (the raw-bytes property below sends such bytes unescaped).
  const path = (endpoint.template.replace('{id}', c.id ?? real) + c.suffix + c.query).replace(/[^\u0021-\u007e]/g, encode);
  const method = c.method ?? endpoint.method;
  const valid = c.valid && validBodyFor(method, endpoint.template);
  let body = c.body;
  if (valid) {
    const keys = Object.keys(valid);
    for (const [i, value] of c.valid!.mutations) if (keys.length) valid[keys[i % keys.length]!] = value;
    body = Buffer.from(JSON.stringify(valid));
  }
  // Only writes read their bodies. A server may reset the connection of a request whose large
  // body it never read (Node does no lingering close), so the client sees a reset, not an answer.
  if (body && body.length > 65_536 && method !== 'POST' && method !== 'PATCH') body = body.subarray(0, 1024);
  const secrets: string[] = [];
  const headers: Record<string, string> = {};
  // Credentials: the real ones, an unknown well-shaped one, the operator token, junk, or none.
  const choice = c.bearer;
  if (choice < 3) headers.authorization = `Bearer ${agents[choice]!.secret}`;
  else if (choice === 3 && c.secret) headers.authorization = `Bearer ${c.secret}`;
  else if (choice === 4) headers.authorization = `Bearer ${OPERATOR_TOKEN}`;
  else if (choice === 5) headers.authorization = `bearer   ${agents[0]!.secret}  `;
  else if (c.authorization !== null) headers.authorization = c.authorization;
  if (headers.authorization) {
    secrets.push(...agents.map((a) => a.secret), OPERATOR_TOKEN);
    if (c.secret) secrets.push(c.secret);
  }
  if (c.idempotencyKey !== null) headers['idempotency-key'] = c.idempotencyKey;
  if (c.contentType !== null) headers['content-type'] = c.contentType;
  if (c.ifNoneMatch !== null) headers['if-none-match'] = c.ifNoneMatch;
  if (c.origin !== null) headers.origin = c.origin;
  // Framing is always explicit: Node's client sends a HEAD or GET body unframed, which the
  // server rightly parses as a second request (the raw-bytes property covers bad framing).
  if (body) {
    if (c.contentLength === 'omit') headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
  } else if (c.contentLength === 'zero-when-empty') {
    headers['content-length'] = '0';
  }
  return { probe: { method, path, headers, body }, secrets };
}

/** Admits a replacement for each of our agents whose secret `authorization` carried. */
async function replaceRetired(authorization: string | undefined): Promise<void> {
  for (let i = 0; i < agents.length; i++) {
    if (authorization?.includes(agents[i]!.secret)) agents[i] = await admit(stack.base, i === 2 ? 'guest' : 'pseudonymous');
  }
}

describe('fuzzed requests to every endpoint', () => {
  it('never answer 5xx, always answer errors in the Error shape, never echo a bearer secret', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const { probe, secrets } = probeOf(c);
        const answer = await sendRequest(port, probe).catch((error: Error) => {
          throw new Error(`${probe.method} ${probe.path.slice(0, 300)} ${JSON.stringify(probe.headers).slice(0, 500)} (${probe.body?.length ?? 0} body bytes): no answer: ${error.message}`);
        });
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        // A fuzzed rotation or revocation may have retired one of our credentials: replace it.
        if (answer.status === 201 && probe.path.startsWith('/api/credentials/')) await replaceRetired(probe.headers.authorization);
        const problems = contractViolations(answer, { method: probe.method, secrets });
        if (problems.length) throw new Error(`${probe.method} ${probe.path.slice(0, 300)}: ${problems.join('; ')}`);
      }),
      { numRuns: 2000, seed: SEED, endOnFailure: true },
    );
    // The fuzz reached the handlers, not only the router: successes, refusals and commits.
    console.log('fuzzed answers by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    for (const status of [200, 400, 401, 404, 405, 415]) expect(seen.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(0);
  }, 240_000);
});

describe('fuzzed field values in authenticated writes', () => {
  it('reach the commit and come back as a receipt or a 4xx, never a 5xx', async () => {
    const writes = endpoints.filter((e) => validBodyFor(e.method, e.template) && e.template.startsWith('/api/') && !e.template.includes('/ops/'));
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: writes.length - 1 }), fc.nat({ max: 1 }), fc.array(fc.tuple(fc.nat(), fieldValue), { minLength: 1, maxLength: 2 }),
        fc.option(fc.oneof(idSegment.filter((x) => x !== null), fc.constantFrom('%00', 'prb_%00', 'sol_0%00', 'dsc_%00x')), { freq: 3 }),
        fc.stringMatching(/^fuzz:[A-Za-z0-9_-]{8,20}$/),
        async (which, agentIndex, mutations, id, key) => {
          const { method, template } = writes[which]!;
          const body = validBodyFor(method, template)!;
          const keys = Object.keys(body);
          for (const [i, value] of mutations) if (keys.length) body[keys[i % keys.length]!] = value;
          const path = template.replace('{id}', id ?? realIdFor(template)).replace(/[^\u0021-\u007e]/g, encode);
          const agent = agents[agentIndex]!;
          const bytes = Buffer.from(JSON.stringify(body));
          const answer = await sendRequest(port, {
            method, path, body: bytes,
            headers: { authorization: `Bearer ${agent.secret}`, 'idempotency-key': key, 'content-type': 'application/json', 'content-length': String(bytes.length) },
          });
          seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
          if (answer.status === 201 && template.startsWith('/api/credentials/')) await replaceRetired(`Bearer ${agent.secret}`);
          const problems = contractViolations(answer, { method, secrets: agents.map((a) => a.secret).concat(agent.secret) });
          if (problems.length) throw new Error(`${method} ${path.slice(0, 200)} ${JSON.stringify(body).slice(0, 300)}: ${problems.join('; ')}`);
        },
      ),
      { numRuns: 300, seed: SEED, endOnFailure: true },
    );
    console.log('fuzzed writes by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    expect(seen.get(201) ?? 0).toBeGreaterThan(0);
    expect(seen.get(400) ?? 0).toBeGreaterThan(0);
  }, 240_000);
});

// ------------------------------------------------------------- raw HTTP bytes

// Mostly well-formed request lines, so the framing and header cases reach the app too.
const byte = fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c));
// Weighted towards well-formed request lines and headers, so the framing cases
// (Content-Length against the body, chunked, Expect) reach the app too.
const rawMethod = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('get', 'FOO', 'G ET', '', 'GET\u0000', 'POST\t'), junk(10)) },
);
const rawTarget = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('/api/v1', '/api/problems', '/api/public/admission', '/api/discussions', '/api/whoami', '/api/profile') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/', '/problems/prb_00000000000000000000000000.json', '*', 'http://service.test/api/v1',
      '//api//v1', '/api/v1?limit=%', '/a b', '/\u0000', '/%00', '/\u00ff\u00fe', `/${'a'.repeat(20_000)}`, ''),
  },
  { weight: 1, arbitrary: fc.string({ unit: byte, maxLength: 40 }).map((s) => `/${s}`) },
);
const rawVersion = fc.oneof(
  { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', 'HTTP/', '') },
);
const rawHeader = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'Content-Length: 5', 'Content-Length: 0', 'Content-Length: 12', 'Content-Length: 1048577', 'Transfer-Encoding: chunked',
      'Content-Type: application/json', 'Content-Type: text/plain', 'Expect: 100-continue', 'Idempotency-Key: fuzz:raw-request-1',
      'If-None-Match: *', 'Origin: http://service.test',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Content-Length: -1', 'Content-Length: abc', 'Content-Length: 99999999999999999999', 'Content-Length: 1e3',
      'Content-Length: 2\r\nContent-Length: 3', 'Content-Length: 0\r\nContent-Length: 0', 'Transfer-Encoding: chunked\r\nContent-Length: 3',
      'Transfer-Encoding: gzip, chunked', 'Authorization: Bearer \u0000', 'Idempotency-Key: a:\u0000bbbbbbbb', 'If-None-Match: \u0000',
      'Origin: \u0000', 'X-Folded: a\r\n continued', 'Bad Header: x', ': empty name', 'NoColon', `X-Big: ${'b'.repeat(20_000)}`,
      'Host: ', 'Host: a\r\nHost: b',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(junk(15), fc.string({ unit: byte, maxLength: 30 })).map(([n, v]) => `${n}: ${v.replace(/\r|\n/g, '')}`),
  },
);
const rawBody = fc.oneof(
  fc.constant(''),
  fc.constantFrom('{"title":"x"}', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\nbad chunk\r\n', '0\r\n\r\n', '{',
    '{"kind":"guest","credential_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}',
    '{"title":"Raw","body":"b","product":"p"}', 'c\r\n{"bio":"raw"}\r\n0\r\n\r\n'),
  fc.string({ unit: byte, maxLength: 60 }),
);

describe('malformed HTTP on the wire', () => {
  it('is answered in the Error shape (or the connection closed), never with a 5xx', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(rawMethod, rawTarget, rawVersion, fc.array(rawHeader, { maxLength: 4 }), rawBody, fc.boolean(), fc.nat({ max: 3 }),
        async (method, target, version, headers, body, withAuth, frame) => {
          const auth = withAuth ? [`Authorization: Bearer ${agents[0]!.secret}`] : [];
          // Mostly framed: an unframed body is parsed as a second, garbage request.
          const framed = headers.some((h) => /^(content-length|transfer-encoding):/im.test(h));
          if (body && !framed && frame > 0) headers = [...headers, `Content-Length: ${Buffer.byteLength(body, 'latin1')}`];
          const lines = [`${method} ${target} ${version}`, 'Host: 127.0.0.1', ...auth, ...headers, 'Connection: close'];
          const bytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
          const answer = await sendRaw(port, bytes);
          seen.set(answer ? String(answer.status) : 'closed', (seen.get(answer ? String(answer.status) : 'closed') ?? 0) + 1);
          if (!answer) return;
          const problems = contractViolations(answer, { method: method === 'HEAD' ? 'HEAD' : 'GET', secrets: withAuth ? [agents[0]!.secret] : [] });
          if (problems.length) throw new Error(`${JSON.stringify(bytes.toString('latin1').slice(0, 300))}: ${problems.join('; ')}`);
        }),
      { numRuns: 1000, seed: SEED, endOnFailure: true },
    );
    console.log('raw answers by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    expect(seen.get('400') ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
