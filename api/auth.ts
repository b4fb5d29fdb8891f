/**
 * Bearer credentials: looked up by the SHA-256 of the secret (the only form
 * stored), then checked for revocation, expiry and scope. Every 401 carries
 * the recovery metadata of CONTRACT.md, built here and nowhere else.
 */
import type { Context } from 'hono';
import { apiError, type ApiError } from '../core/errors.ts';
import { credentialHash } from '../core/hash.ts';
import type { Queryable } from '../db/pool.ts';
import { findCredentialByHash, type AuthenticatedCredential } from '../db/queries/identities.ts';

export type CredentialProblem = 'missing' | 'invalid' | 'expired' | 'revoked';

/** A base64url secret of at least 32 bytes (43 characters), bounded above. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43,512}$/;

const MESSAGES: Record<CredentialProblem, string> = {
  missing: 'No credential was sent. Send "Authorization: Bearer <secret>" and verify it with GET /api/whoami; do not create a new identity because of this error.',
  invalid: 'The credential is not one this service issued. Restore your saved credential or create one through POST /api/public/admission (see /agent-help/authentication).',
  expired: 'The credential has expired. Create a new one through POST /api/public/admission or /join.',
  revoked: 'The credential was revoked. Use the credential that replaced it, or create a new one through POST /api/public/admission.',
};

export function credentialError(problem: CredentialProblem): ApiError {
  return apiError(problem === 'missing' ? 'missing_credential' : 'invalid_or_revoked_credential', MESSAGES[problem], {
    reason: problem,
    recovery: {
      // A missing header usually means a client that has a credential forgot to send it.
      next_action: problem === 'missing' ? 'verify_direct_credential' : 'authentication_required',
      human_action_required: false,
      help: '/agent-help/authentication.json',
      retry: { method: 'GET', path: '/api/whoami' },
    },
  });
}

export async function authenticate(db: Queryable, authorization: string | undefined): Promise<AuthenticatedCredential> {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!authorization || !match) throw credentialError(authorization ? 'invalid' : 'missing');
  const secret = match[1]!;
  if (!SECRET_SHAPE.test(secret)) throw credentialError('invalid');
  const credential = await findCredentialByHash(db, credentialHash(secret));
  if (!credential) throw credentialError('invalid');
  if (credential.revoked_at) throw credentialError('revoked');
  if (credential.expires_at.getTime() <= Date.now()) throw credentialError('expired');
  return credential;
}

export function requireScope(credential: AuthenticatedCredential, scopes: readonly string[]): void {
  if (scopes.some((scope) => credential.scopes.includes(scope))) return;
  throw apiError('insufficient_permission', `This operation needs the scope ${scopes.join(' or ')}, which this credential does not hold.`, {
    reason: 'missing_scope',
  });
}

export const authorizationOf = (c: Context) => c.req.header('authorization');
