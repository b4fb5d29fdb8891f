import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { admit, errorOf, newSecret } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ ADMISSION_RATE_LIMIT: '1000' }, { worker: false });
});
afterAll(() => stack.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.base}/api/public/admission`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('POST /api/public/admission', () => {
  it('creates a pseudonymous identity with all eight scopes and a 180-day credential', async () => {
    const secret = newSecret();
    const res = await post({ kind: 'pseudonymous', handle: 'alice-bot', credential_hash: credentialHash(secret) });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.identity).toMatchObject({ kind: 'pseudonymous', handle: 'alice-bot' });
    expect(body.identity.id).toMatch(/^agt_[0-9a-z]{26}$/);
    expect(body.credential.id).toMatch(/^crd_[0-9a-z]{26}$/);
    expect(body.credential.epoch).toBe(1);
    expect(body.credential.scopes).toHaveLength(8);
    const days = (Date.parse(body.credential.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(179.9);
    expect(days).toBeLessThan(180.1);
  });

  it('gives a guest every scope but knowledge, and refuses knowledge when asked', async () => {
    const res = await post({ kind: 'guest', credential_hash: credentialHash(newSecret()) });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.credential.scopes).not.toContain('knowledge');
    expect(body.credential.scopes).toHaveLength(7);
    expect(body.identity.handle).toBeNull();

    const refused = await post({ kind: 'guest', credential_hash: credentialHash(newSecret()), scopes: ['knowledge'] });
    expect(refused.status).toBe(400);
    expect(errorOf(await refused.json())).toMatchObject({ code: 'invalid_arguments', field: 'scopes' });
  });

  it('grants exactly the scopes requested', async () => {
    const res = await post({
      kind: 'pseudonymous',
      credential_hash: credentialHash(newSecret()),
      scopes: ['reply', 'reply', 'feedback'],
    });
    expect((await res.json()).credential.scopes).toEqual(['reply', 'feedback']);
  });

  it('stores only the hash: the secret is nowhere in the database', async () => {
    const secret = newSecret();
    await post({ kind: 'guest', credential_hash: credentialHash(secret) });
    const dump = await stack.pool.query(`SELECT row_to_json(c)::text AS row FROM credentials c`);
    const text = dump.rows.map((r) => r.row).join('\n');
    expect(text).toContain(credentialHash(secret));
    expect(text).not.toContain(secret);
  });

  it('refuses a credential_hash that is already registered with 409 conflict', async () => {
    const hash = credentialHash(newSecret());
    expect((await post({ kind: 'guest', credential_hash: hash })).status).toBe(201);
    const again = await post({ kind: 'guest', credential_hash: hash });
    expect(again.status).toBe(409);
    expect(errorOf(await again.json())).toMatchObject({ code: 'conflict', reason: 'credential_already_registered' });
  });

  it('refuses a taken handle with 409', async () => {
    await post({ kind: 'pseudonymous', handle: 'taken-handle', credential_hash: credentialHash(newSecret()) });
    const res = await post({
      kind: 'pseudonymous',
      handle: 'taken-handle',
      credential_hash: credentialHash(newSecret()),
    });
    expect(res.status).toBe(409);
    expect(errorOf(await res.json()).reason).toBe('handle_taken');
  });

  it('is same-origin: a foreign Origin is 403, our own Origin is accepted', async () => {
    const foreign = await post(
      { kind: 'guest', credential_hash: credentialHash(newSecret()) },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(errorOf(await foreign.json())).toMatchObject({
      code: 'insufficient_permission',
      reason: 'origin_not_allowed',
    });
    const own = await post(
      { kind: 'guest', credential_hash: credentialHash(newSecret()) },
      { origin: 'http://service.test' },
    );
    expect(own.status).toBe(201);
  });

  describe.each([
    ['an unknown kind', { kind: 'admin', credential_hash: credentialHash('x'.repeat(43)) }, 'kind'],
    [
      'a handle for a guest',
      { kind: 'guest', handle: 'nope-nope', credential_hash: credentialHash('y'.repeat(43)) },
      'handle',
    ],
    ['a malformed hash', { kind: 'guest', credential_hash: 'sha256:XYZ' }, 'credential_hash'],
    ['a raw secret instead of a hash', { kind: 'guest', credential_hash: newSecret() }, 'credential_hash'],
    [
      'a short handle',
      { kind: 'pseudonymous', handle: 'ab', credential_hash: credentialHash('z'.repeat(43)) },
      'handle',
    ],
    ['an unknown field', { kind: 'guest', credential_hash: credentialHash('w'.repeat(43)), admin: true }, 'admin'],
    [
      'an unknown scope',
      { kind: 'guest', credential_hash: credentialHash('v'.repeat(43)), scopes: ['root'] },
      'scopes.0',
    ],
  ])('with %s', (_name, body, field) => {
    it('answers 400 naming the field', async () => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', field });
    });
  });
});

describe('GET /api/whoami', () => {
  it('answers 200 with the identity and credential for a valid bearer', async () => {
    const agent = await admit(stack.base);
    const res = await fetch(`${stack.base}/api/whoami`, { headers: { authorization: `Bearer ${agent.secret}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = await res.json();
    expect(body).toMatchObject({
      authenticated: true,
      identity: { id: agent.id },
      credential: { id: agent.credentialId, epoch: 1 },
    });
  });

  const whoami = (authorization?: string) =>
    fetch(`${stack.base}/api/whoami`, { headers: authorization ? { authorization } : {} });

  it('answers a missing credential with 401 missing_credential and verify_direct_credential', async () => {
    const res = await whoami();
    expect(res.status).toBe(401);
    const error = errorOf(await res.json());
    expect(error).toMatchObject({ code: 'missing_credential', reason: 'missing' });
    expect(error.recovery).toEqual({
      next_action: 'verify_direct_credential',
      human_action_required: false,
      help: '/agent-help/authentication.json',
      retry: { method: 'GET', path: '/api/whoami' },
    });
  });

  it.each([
    ['an unknown secret', () => `Bearer ${newSecret()}`],
    ['a secret of the wrong shape', () => 'Bearer short'],
    ['another scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
  ])('answers %s with 401 invalid and authentication_required', async (_name, header) => {
    const res = await whoami(header());
    expect(res.status).toBe(401);
    const error = errorOf(await res.json());
    expect(error).toMatchObject({ code: 'invalid_or_revoked_credential', reason: 'invalid' });
    expect(error.recovery).toMatchObject({ next_action: 'authentication_required' });
  });

  it('answers an expired credential with reason expired, and a revoked one with reason revoked', async () => {
    const expired = await admit(stack.base);
    await stack.pool.query(`UPDATE credentials SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.credentialId,
    ]);
    const e = await whoami(`Bearer ${expired.secret}`);
    expect(e.status).toBe(401);
    expect(errorOf(await e.json())).toMatchObject({ code: 'invalid_or_revoked_credential', reason: 'expired' });

    const revoked = await admit(stack.base);
    await stack.pool.query(`UPDATE credentials SET revoked_at = now() WHERE id = $1`, [revoked.credentialId]);
    const r = await whoami(`Bearer ${revoked.secret}`);
    expect(errorOf(await r.json())).toMatchObject({ code: 'invalid_or_revoked_credential', reason: 'revoked' });
  });

  it('never echoes the secret in an error', async () => {
    const secret = newSecret();
    const text = await (await whoami(`Bearer ${secret}`)).text();
    expect(text).not.toContain(secret);
  });
});
