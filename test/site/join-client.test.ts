import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { IdempotencyKeySchema } from '../../core/schemas/fields.ts';
import { createJoinApi } from '../../site/lib/join/api.ts';
import { credentialHashOf, generateSecret, newIdempotencyKey } from '../../site/lib/join/credential.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

describe('credentials made with WebCrypto', () => {
  it('are 32 random bytes as unpadded base64url, different every time', () => {
    const secrets = Array.from({ length: 50 }, generateSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('hash exactly as the service does: sha256: and the hex of the UTF-8 text', async () => {
    expect(await credentialHashOf('abc')).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    for (let i = 0; i < 20; i++) {
      const secret = generateSecret();
      expect(await credentialHashOf(secret)).toBe(credentialHash(secret));
    }
  });

  it('get Idempotency-Keys of the shape write endpoints require', () => {
    const key = newIdempotencyKey();
    expect(IdempotencyKeySchema.safeParse(key).success).toBe(true);
    expect(newIdempotencyKey()).not.toBe(key);
  });
});

describe('the /join API client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ ADMISSION_RATE_LIMIT: '1000' }, { worker: false });
  });
  afterAll(() => stack.close());

  it('admits a hash and verifies the secret behind it', async () => {
    const api = createJoinApi(stack.base);
    const secret = generateSecret();
    const admitted = await api.admit({
      kind: 'guest',
      credential_hash: await credentialHashOf(secret),
      scopes: ['reply'],
    });
    if (!admitted.ok) throw new Error(admitted.error.message);
    expect(admitted.status).toBe(201);
    const verified = await api.whoami(secret);
    if (!verified.ok) throw new Error(verified.error.message);
    expect(verified.body.identity.id).toBe(admitted.body.identity.id);
    expect(verified.body.credential).toMatchObject({ scopes: ['reply'], epoch: 1 });
  });

  it('turns a 401 into an error view with the reason and next action', async () => {
    const answer = await createJoinApi(stack.base).whoami(generateSecret());
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({
      status: 401,
      code: 'invalid_or_revoked_credential',
      reason: 'invalid',
      nextAction: 'authentication_required',
    });
    expect(answer.error.requestId).toMatch(/^req_/);
  });

  it('reports an unreachable service as a network error, not a thrown exception', async () => {
    const answer = await createJoinApi('http://127.0.0.1:9').whoami(generateSecret());
    expect(answer).toMatchObject({ ok: false, error: { status: 0, code: 'network_error' } });
  });
});
