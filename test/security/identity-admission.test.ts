/**
 * Every way an identity comes in is one admission, under one client key.
 *
 * Replayed attacks: passkey accounts scripted from one IPv6 /64 (software
 * authenticators, attestation `none`) were each their own trust group, so
 * a handful of them outvoted independent confirmers; and every limit keyed
 * the whole address, so rotating inside one /64 (2^64 addresses for one
 * host) was never counted twice: admissions past the limit, bad credentials
 * without a 429, passkey ceremonies without end.
 *
 * The service sits behind one trusted proxy here, so X-Forwarded-For names
 * the client address as nginx would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, newSecret } from '../helpers/client.ts';
import { ceremony, passkeySignUp } from '../helpers/software-passkey.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const ADMISSIONS = 3;
const FAILURES = 5;
const CEREMONIES = 8;
let stack: Stack;
let base: string;

beforeAll(async () => {
  stack = await startStack(
    {
      TRUSTED_PROXY_HOPS: '1',
      ADMISSION_RATE_LIMIT: String(ADMISSIONS),
      AUTH_FAILURE_LIMIT: String(FAILURES),
      PASSKEY_CEREMONY_RATE_LIMIT: String(CEREMONIES),
    },
    { worker: false, originFromPort: true },
  );
  base = stack.base;
});
afterAll(() => stack?.close());

/** Host `n` of one /64: every address a single household or server is usually given. */
const inPrefix = (prefix: string, n: number) => ({
  'x-forwarded-for': `${prefix}:${(0x1000 + n).toString(16)}:${n.toString(16)}:0:${n.toString(16)}`,
});
let handles = 0;
const handle = () => `pk-${process.pid}-${++handles}`;

const groupsOf = async (ids: string[]) =>
  (
    await stack.pool.query(
      'SELECT identity_id, confirmer_group FROM identity_admissions WHERE identity_id = ANY($1::text[])',
      [ids],
    )
  ).rows as { identity_id: string; confirmer_group: string }[];

describe('passkey sign-up is an admission', () => {
  it('puts passkey accounts and direct-credential identities from one IPv6 /64 in one admission group', async () => {
    const prefix = '2001:db8:10:1';
    const ids: string[] = [];
    for (let n = 1; n <= 2; n++) {
      const signedUp = await passkeySignUp(base, handle(), inPrefix(prefix, n));
      expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(200);
      ids.push(signedUp.identityId!);
    }
    ids.push((await admit(base, 'pseudonymous', {}, { ...inPrefix(prefix, 3), origin: base })).id);

    const groups = await groupsOf(ids);
    // Each identity has its admission recorded; all three count once, as one confirmer.
    expect(groups.map((g) => g.identity_id).sort()).toEqual([...ids].sort());
    expect(new Set(groups.map((g) => g.confirmer_group)).size).toBe(1);
  });

  it('spends the admission limit of the client key, so passkey sign-ups stop at it', async () => {
    const prefix = '2001:db8:10:2';
    const answers = [];
    for (let n = 1; n <= ADMISSIONS + 1; n++) answers.push(await passkeySignUp(base, handle(), inPrefix(prefix, n)));
    expect(answers.map((a) => a.status)).toEqual([...Array(ADMISSIONS).fill(200), 429]);
    expect(errorOf(answers.at(-1)!.body)).toMatchObject({ code: 'rate_limited', reason: 'admission_rate_limited' });
    expect(
      await stack.pool
        .query(`SELECT 1 FROM identities WHERE handle = $1`, [`pk-${process.pid}-${handles}`])
        .then((r) => r.rowCount),
    ).toBe(0);
  });
});

describe('one client key for every limit: the IPv6 /64', () => {
  it('answers 429 to admissions rotating inside one /64 once the limit is spent', async () => {
    const prefix = '2001:db8:20:1';
    const statuses: number[] = [];
    for (let n = 1; n <= ADMISSIONS + 2; n++) {
      const res = await fetch(`${base}/api/public/admission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...inPrefix(prefix, n) },
        body: JSON.stringify({ kind: 'guest', credential_hash: 'x'.repeat(64) }),
      });
      statuses.push(res.status);
      if (res.status === 429)
        expect(errorOf(await res.json())).toMatchObject({ code: 'rate_limited', reason: 'admission_rate_limited' });
    }
    // The bodies are refused (400) after the limit is counted: what counts is the key, not the answer.
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(statuses.slice(ADMISSIONS)).toEqual([429, 429]);
  });

  it('answers 429 to bad credentials rotating inside one /64 once the failure bound is spent', async () => {
    const prefix = '2001:db8:20:2';
    const statuses: number[] = [];
    for (let n = 1; n <= FAILURES + 3; n++) {
      statuses.push(
        (
          await fetch(`${base}/api/whoami`, {
            headers: { authorization: `Bearer ${newSecret()}`, ...inPrefix(prefix, n) },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(FAILURES).fill(401), 429, 429, 429]);
  });

  it('answers 429 to passkey ceremonies rotating inside one /64 once their limit is spent', async () => {
    const prefix = '2001:db8:20:3';
    const statuses: number[] = [];
    for (let n = 1; n <= CEREMONIES + 2; n++) {
      statuses.push((await ceremony(base, '/account/passkeys/signin/options', {}, inPrefix(prefix, n))).status);
    }
    expect(statuses).toEqual([...Array(CEREMONIES).fill(200), 429, 429]);
  });

  it('keeps another /64 and every other IPv4 address on budgets of their own', async () => {
    expect((await ceremony(base, '/account/passkeys/signin/options', {}, inPrefix('2001:db8:20:4', 1))).status).toBe(
      200,
    );
    expect(
      (await ceremony(base, '/account/passkeys/signin/options', {}, { 'x-forwarded-for': '198.51.100.20' })).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${base}/api/whoami`, {
          headers: { authorization: `Bearer ${newSecret()}`, 'x-forwarded-for': '198.51.100.21' },
        })
      ).status,
    ).toBe(401);
  });
});
