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
import {
  bodies,
  encode,
  fieldValue,
  idSegment,
  junk,
  methods,
  query,
  rawBody,
  rawHeader,
  rawMethod,
  rawTarget,
  rawVersion,
  secretArb,
  suffix,
} from '../helpers/fuzz-arbitraries.ts';
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
    READ_RATE_LIMIT: '1000000',
    WRITE_RATE_LIMIT: '1000000',
    ADMISSION_RATE_LIMIT: '1000000',
    OPERATOR_TOKEN_SHA256: sha256Hex(OPERATOR_TOKEN),
    COMMIT_TIMEOUT_MS: '10000',
  });
  port = Number(new URL(stack.base).port);
  agents = [await admit(stack.base), await admit(stack.base), await admit(stack.base, 'guest')];
  const [a] = agents as [Agent];
  const problem = await send(stack.base, a, 'POST', '/api/problems', problemBody());
  const solution = await send(stack.base, a, 'POST', '/api/solutions', {
    problem_id: problem.body.resource.id,
    body: 'Try this.',
  });
  const discussion = await send(stack.base, a, 'POST', '/api/discussions', { title: 'Fuzz target', body: 'Talk.' });
  const reply = await send(stack.base, agents[1]!, 'POST', `/api/discussions/${discussion.body.resource.id}/replies`, {
    body: 'Hi.',
  });
  const inbox = await fetch(`${stack.base}/api/inbox`, { headers: { authorization: `Bearer ${a.secret}` } }).then((r) =>
    r.json(),
  );
  ids = {
    problem: problem.body.resource.id,
    solution: solution.body.resource.id,
    discussion: discussion.body.resource.id,
    reply: reply.body.resource.id,
    agent: a.id,
    inbox: inbox.items[0].id,
  };

  // Every endpoint, from the service's own lists: the index and the OpenAPI document.
  const index = (await fetch(`${stack.base}/api/v1`).then((r) => r.json())) as { paths: string[] };
  const openapi = (await fetch(`${stack.base}/api/v1/openapi.json`).then((r) => r.json())) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const fromDocument = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => m !== 'options')
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
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
    'POST /api/feedback-reports': () => ({
      kind: 'feedback',
      target: { type: 'problem', id: ids.problem },
      body: 'Feedback',
      evidence: ['https://example.test'],
    }),
    'POST /api/public/admission': () => ({ kind: 'guest', credential_hash: credentialHash(newSecret()) }),
    'POST /api/ops/rebuild': () => ({ type: 'problem', id: ids.problem }),
  };
  return bodies[`${method} ${template}`]?.() ?? null;
}

/** The real id a path template names by default. */
function realIdFor(template: string): string {
  if (template.includes('/inbox/')) return ids.inbox;
  if (template.includes('/replies')) return ids.discussion;
  for (const kind of ['problem', 'solution', 'discussion', 'agent'] as const)
    if (template.includes(`/${kind}s/`)) return ids[kind];
  return ids.problem;
}

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
  authorization: fc.option(
    fc.oneof(
      junk(60),
      fc.constantFrom('Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer a b', `Bearer ${'a'.repeat(600)}`),
    ),
    { freq: 4 },
  ),
  idempotencyKey: fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^fuzz:[A-Za-z0-9_-]{8,20}$/) },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        junk(40),
        fc.constantFrom('', ':', 'a:b', `${'x'.repeat(64)}:${'y'.repeat(129)}`, 'a:bbbbbbbb:c'),
      ),
    },
  ),
  contentType: fc.oneof(
    { weight: 4, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        junk(30),
        fc.constantFrom(
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/json;',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonx',
          ';',
          '',
        ),
      ),
    },
  ),
  contentLength: fc.constantFrom('auto', 'auto', 'zero-when-empty', 'omit'),
  ifNoneMatch: fc.option(fc.oneof(junk(40), fc.constantFrom('*', '"abc"', 'W/"x"', '"0-0", "1-1"', '""', ',,,')), {
    freq: 3,
  }),
  origin: fc.option(fc.oneof(junk(40), fc.constantFrom('http://service.test', 'null', 'http://evil.test', '')), {
    freq: 3,
  }),
  body: bodies,
  valid: fc.option(fc.record({ mutations: fc.array(fc.tuple(fc.nat(), fieldValue), { maxLength: 2 }) }), { freq: 2 }),
});

function probeOf(c: Case): { probe: Probe; secrets: string[] } {
  const endpoint = endpoints[c.endpoint % endpoints.length]!;
  const real = realIdFor(endpoint.template);
  // Anything outside printable ASCII is escaped, so the request passes the HTTP parser and
  // reaches the app (the raw-bytes property below sends such bytes unescaped).
  const path = (endpoint.template.replace('{id}', c.id ?? real) + c.suffix + c.query).replace(
    /[^\u0021-\u007e]/g,
    encode,
  );
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
    if (authorization?.includes(agents[i]!.secret))
      agents[i] = await admit(stack.base, i === 2 ? 'guest' : 'pseudonymous');
  }
}

/**
 * The authorization server's own endpoints speak OAuth, not the API's Error
 * shape: RFC 6749 errors (`{ "error", "error_description" }`) to clients,
 * and an HTML page to a person in the browser when the client cannot be told
 * (authorize with a bad client or redirect_uri, an expired interaction).
 */
const OAUTH_PROTOCOL = /^\/(oauth\/|\.well-known\/(oauth-authorization-server|openid-configuration)(?![^?#]))/;

function oauthViolations(answer: Awaited<ReturnType<typeof sendRequest>>, secrets: string[]): string[] {
  const problems = contractViolations({ ...answer, status: Math.min(answer.status, 399) }, { method: 'GET', secrets });
  if (answer.status >= 500) problems.push(`status ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  if (
    answer.status >= 400 &&
    answer.body.length > 0 &&
    /^application\/json/.test(answer.headers['content-type'] ?? '')
  ) {
    let body: { error?: unknown } = {};
    try {
      body = JSON.parse(answer.body.toString('utf8')) as { error?: unknown };
    } catch {
      problems.push(`error ${answer.status} body is not JSON`);
    }
    if (typeof body.error !== 'string' && typeof (body.error as { code?: unknown } | undefined)?.code !== 'string') {
      problems.push(`error ${answer.status} is neither an OAuth error nor the Error shape`);
    }
  } else if (
    answer.status >= 400 &&
    !/^text\/html/.test(answer.headers['content-type'] ?? '') &&
    answer.body.length > 0
  ) {
    problems.push(`error ${answer.status} with content-type ${answer.headers['content-type']}`);
  }
  return problems;
}

describe('fuzzed requests to every endpoint', () => {
  it('never answer 5xx, always answer errors in the Error shape, never echo a bearer secret', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const { probe, secrets } = probeOf(c);
        const answer = await sendRequest(port, probe).catch((error: Error) => {
          throw new Error(
            `${probe.method} ${probe.path.slice(0, 300)} ${JSON.stringify(probe.headers).slice(0, 500)} (${probe.body?.length ?? 0} body bytes): no answer: ${error.message}`,
          );
        });
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        // A fuzzed rotation or revocation may have retired one of our credentials: replace it.
        if (answer.status === 201 && probe.path.startsWith('/api/credentials/'))
          await replaceRetired(probe.headers.authorization);
        const problems = OAUTH_PROTOCOL.test(probe.path)
          ? oauthViolations(answer, secrets)
          : contractViolations(answer, { method: probe.method, secrets, path: probe.path });
        if (problems.length) throw new Error(`${probe.method} ${probe.path.slice(0, 300)}: ${problems.join('; ')}`);
      }),
      { numRuns: 2000, seed: SEED, endOnFailure: true },
    );
    // The fuzz reached the handlers, not only the router: successes, refusals and commits.
    console.log('fuzzed answers by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    for (const status of [200, 400, 401, 404, 405, 415])
      expect(seen.get(status) ?? 0, `answers with ${status}`).toBeGreaterThan(0);
  }, 240_000);
});

describe('fuzzed field values in authenticated writes', () => {
  it('reach the commit and come back as a receipt or a 4xx, never a 5xx', async () => {
    const writes = endpoints.filter(
      (e) => validBodyFor(e.method, e.template) && e.template.startsWith('/api/') && !e.template.includes('/ops/'),
    );
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: writes.length - 1 }),
        fc.nat({ max: 1 }),
        fc.array(fc.tuple(fc.nat(), fieldValue), { minLength: 1, maxLength: 2 }),
        fc.option(
          fc.oneof(
            idSegment.filter((x) => x !== null),
            fc.constantFrom('%00', 'prb_%00', 'sol_0%00', 'dsc_%00x'),
          ),
          { freq: 3 },
        ),
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
            method,
            path,
            body: bytes,
            headers: {
              authorization: `Bearer ${agent.secret}`,
              'idempotency-key': key,
              'content-type': 'application/json',
              'content-length': String(bytes.length),
            },
          });
          seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
          if (answer.status === 201 && template.startsWith('/api/credentials/'))
            await replaceRetired(`Bearer ${agent.secret}`);
          const problems = contractViolations(answer, {
            method,
            secrets: agents.map((a) => a.secret).concat(agent.secret),
          });
          if (problems.length)
            throw new Error(
              `${method} ${path.slice(0, 200)} ${JSON.stringify(body).slice(0, 300)}: ${problems.join('; ')}`,
            );
        },
      ),
      { numRuns: 300, seed: SEED, endOnFailure: true },
    );
    console.log('fuzzed writes by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    expect(seen.get(201) ?? 0).toBeGreaterThan(0);
    expect(seen.get(400) ?? 0).toBeGreaterThan(0);
  }, 240_000);
});

describe('malformed HTTP on the wire', () => {
  it('is answered in the Error shape (or the connection closed), never with a 5xx', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        rawMethod,
        rawTarget,
        rawVersion,
        fc.array(rawHeader, { maxLength: 4 }),
        rawBody,
        fc.boolean(),
        fc.nat({ max: 3 }),
        async (method, target, version, headers, body, withAuth, frame) => {
          const auth = withAuth ? [`Authorization: Bearer ${agents[0]!.secret}`] : [];
          // Mostly framed: an unframed body is parsed as a second, garbage request.
          const framed = headers.some((h) => /^(content-length|transfer-encoding):/im.test(h));
          if (body && !framed && frame > 0)
            headers = [...headers, `Content-Length: ${Buffer.byteLength(body, 'latin1')}`];
          const lines = [`${method} ${target} ${version}`, 'Host: 127.0.0.1', ...auth, ...headers, 'Connection: close'];
          const bytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');
          const answer = await sendRaw(port, bytes);
          seen.set(
            answer ? String(answer.status) : 'closed',
            (seen.get(answer ? String(answer.status) : 'closed') ?? 0) + 1,
          );
          if (!answer) return;
          const problems = contractViolations(answer, {
            method: method === 'HEAD' ? 'HEAD' : 'GET',
            secrets: withAuth ? [agents[0]!.secret] : [],
          });
          if (problems.length)
            throw new Error(`${JSON.stringify(bytes.toString('latin1').slice(0, 300))}: ${problems.join('; ')}`);
        },
      ),
      { numRuns: 1000, seed: SEED, endOnFailure: true },
    );
    console.log('raw answers by status', JSON.stringify(Object.fromEntries([...seen].sort())));
    expect(seen.get('400') ?? 0).toBeGreaterThan(0);
  }, 240_000);
});
