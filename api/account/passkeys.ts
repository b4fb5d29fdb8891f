/**
 * Sign-up and sign-in with a passkey (WebAuthn), on @simplewebauthn/server:
 * the library checks the attestation and assertion (challenge, origin, RP ID,
 * signature, counter); this module keeps the challenges, the accounts and
 * the sessions. No passwords exist.
 *
 * Each ceremony is two JSON requests from /account/signin's script: "options"
 * stores a random challenge under a ceremony id and answers the options the
 * browser passes to navigator.credentials; "verify" takes the challenge
 * (once) and checks the browser's answer. These are fetch calls, not forms:
 * they must carry our own Origin and a JSON body, which another site cannot
 * send without a CORS preflight that we never grant.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { z } from 'zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { apiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { AdmissionSchema } from '../../core/schemas/identity.ts';
import { withTransaction } from '../../db/pool.ts';
import {
  findPasskey,
  insertAccount,
  insertChallenge,
  insertPasskey,
  recordPasskeyUse,
  takeChallenge,
} from '../../db/queries/accounts.ts';
import { admitIdentity } from '../../db/queries/admission.ts';
import { handleExists } from '../../db/queries/identities.ts';
import type { AppDeps } from '../app-deps.ts';
import { beginAdmission } from '../admission.ts';
import { readJsonBody } from '../http/body.ts';
import { clientAddress } from '../limits/rate-limit.ts';
import { CACHE } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';
import { localReturnPath, startSession } from './session.ts';
import type { AuthorizationServerHooks } from './pages.ts';

const CEREMONY_TTL_MS = 5 * 60 * 1000;
const RP_NAME = 'Agent Knowledge';

const RegisterOptionsSchema = z.strictObject({ handle: AdmissionSchema.shape.handle.unwrap() });
const CeremonySchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/);
const VerifySchema = z.strictObject({
  ceremony: CeremonySchema,
  response: z.looseObject({ id: z.string().min(1).max(1024), response: z.looseObject({}) }),
  return_to: z.string().max(2048).optional(),
});
const AuthenticateOptionsSchema = z.strictObject({});

const notVerified = (detail: string) => apiError('passkey_not_verified', { detail }, { field: 'response' });

/**
 * `endAuthorizationSession` (api/oauth/routes.ts): a sign-in ends this
 * browser's session with the authorization server, which may name the
 * person signed in before. Left naming them, the next consent was finished
 * for the new person against a session of the old one, and the OAuth
 * library sent the browser to a sign-out confirmation this service does
 * not serve (a 404), so the new person could not connect.
 */
export function createPasskeyHandlers(
  deps: AppDeps,
  { endAuthorizationSession }: Pick<AuthorizationServerHooks, 'endAuthorizationSession'>,
) {
  const { config, pool, rateLimit, fence } = deps;
  const origin = () => config.PUBLIC_ORIGIN;
  const rpID = () => new URL(config.PUBLIC_ORIGIN).hostname;

  /**
   * Same-origin JSON only, while writes are open (every ceremony writes a
   * challenge or a session), and limited per client key.
   */
  async function guard(c: Context): Promise<unknown> {
    await fence.refuseWhileFenced();
    if (c.req.header('origin') !== origin()) {
      throw apiError('origin_not_allowed', {
        where: 'the passkey ceremonies (they are sent from this site’s /account/signin)',
      });
    }
    await rateLimit(c, 'passkey_ceremony', clientAddress(c, config.TRUSTED_PROXY_HOPS), {
      limit: config.PASSKEY_CEREMONY_RATE_LIMIT,
      windowSeconds: config.PASSKEY_CEREMONY_RATE_WINDOW_SECONDS,
    });
    return readJsonBody(c);
  }

  const answer = (c: Context, body: object) => c.json(body, 200, { 'Cache-Control': CACHE.private });

  async function verifyFailure<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // The library throws plain Errors for a response that does not verify; say why, never 500.
      if (error instanceof Error && error.name !== 'ApiError') throw notVerified(error.message);
      throw error;
    }
  }

  return {
    /** Sign-up, step 1: a handle that is free, and the options to create a passkey for it. */
    async registerOptions(c: Context): Promise<Response> {
      const { handle } = parseOrThrow(RegisterOptionsSchema, await guard(c), 'body');
      if (await handleExists(pool, handle)) {
        throw apiError('handle_taken', { handle }, { field: 'handle' });
      }
      const userHandle = randomBytes(32).toString('base64url');
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rpID(),
        userName: handle,
        userID: Buffer.from(userHandle),
        attestationType: 'none',
        // A discoverable credential, so sign-in needs no handle typed in.
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      const ceremony = randomBytes(24).toString('base64url');
      await insertChallenge(pool, {
        id: ceremony,
        purpose: 'register',
        challenge: options.challenge,
        handle,
        userHandle,
        expiresAt: new Date(Date.now() + CEREMONY_TTL_MS),
      });
      return answer(c, { ceremony, options });
    },

    /** Sign-up, step 2: the new passkey verifies; the identity, account, passkey and session are made together. */
    async register(c: Context): Promise<Response> {
      const body = parseOrThrow(VerifySchema, await guard(c), 'body');
      // Sign-up makes an identity: through admission, like a direct credential (fence, limit, admission group).
      const clientKey = await beginAdmission(deps, c);
      const pending = await takeChallenge(pool, body.ceremony, 'register');
      if (!pending?.handle || !pending.user_handle)
        throw notVerified('this sign-up ceremony is unknown, expired or already used.');
      const verification = await verifyFailure(() =>
        verifyRegistrationResponse({
          response: body.response as unknown as RegistrationResponseJSON,
          expectedChallenge: pending.challenge,
          expectedOrigin: origin(),
          expectedRPID: rpID(),
          requireUserVerification: false,
        }),
      );
      if (!verification.verified) throw notVerified('the signature or its origin does not match.');
      const { credential } = verification.registrationInfo;
      const identityId = newId('agent');
      const handle = pending.handle;
      await withTransaction(pool, async (tx) => {
        if (await handleExists(tx, handle)) {
          throw apiError('handle_taken', { handle }, { field: 'handle' });
        }
        await admitIdentity(tx, { id: identityId, kind: 'pseudonymous', handle, display_name: null }, clientKey);
        await insertAccount(tx, identityId, pending.user_handle!);
        await insertPasskey(tx, {
          id: credential.id,
          identityId,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
        });
        await startSession(c, tx, identityId, origin());
      }).catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505') {
          throw apiError('handle_taken', { handle }, { field: 'handle' });
        }
        throw error;
      });
      await endAuthorizationSession(c);
      return answer(c, {
        signed_in: true,
        identity: { id: identityId, kind: 'pseudonymous', handle },
        redirect: localReturnPath(body.return_to),
      });
    },

    /** Sign-in, step 1: a challenge for any passkey of this site (discoverable credentials). */
    async authenticateOptions(c: Context): Promise<Response> {
      parseOrThrow(AuthenticateOptionsSchema, await guard(c), 'body');
      const options = await generateAuthenticationOptions({ rpID: rpID(), userVerification: 'preferred' });
      const ceremony = randomBytes(24).toString('base64url');
      await insertChallenge(pool, {
        id: ceremony,
        purpose: 'authenticate',
        challenge: options.challenge,
        expiresAt: new Date(Date.now() + CEREMONY_TTL_MS),
      });
      return answer(c, { ceremony, options });
    },

    /** Sign-in, step 2: the assertion verifies against the stored public key; a session starts. */
    async authenticate(c: Context): Promise<Response> {
      const body = parseOrThrow(VerifySchema, await guard(c), 'body');
      const pending = await takeChallenge(pool, body.ceremony, 'authenticate');
      if (!pending) throw notVerified('this sign-in ceremony is unknown, expired or already used.');
      const passkey = await findPasskey(pool, body.response.id);
      if (!passkey)
        throw notVerified('this passkey is not registered here (create an account instead, or use another passkey).');
      const verification = await verifyFailure(() =>
        verifyAuthenticationResponse({
          response: body.response as unknown as AuthenticationResponseJSON,
          expectedChallenge: pending.challenge,
          expectedOrigin: origin(),
          expectedRPID: rpID(),
          requireUserVerification: false,
          credential: {
            id: passkey.id,
            publicKey: new Uint8Array(passkey.public_key),
            counter: Number(passkey.counter),
            transports: passkey.transports as never,
          },
        }),
      );
      if (!verification.verified) throw notVerified('the signature or its origin does not match.');
      await recordPasskeyUse(pool, passkey.id, verification.authenticationInfo.newCounter);
      await startSession(c, pool, passkey.identity_id, origin());
      await endAuthorizationSession(c);
      return answer(c, { signed_in: true, redirect: localReturnPath(body.return_to) });
    },
  };
}
