/**
 * Bearer credentials: looked up by the SHA-256 of the secret (the only form
 * stored), then checked for revocation, expiry and scope. Every 401 carries
 * the recovery metadata of docs/api.md, built here and nowhere else.
 */
import type { Context } from 'hono';
import { apiError, type ApiError } from '../core/errors.ts';
import { credentialHash } from '../core/hash.ts';
import type { Queryable } from '../db/pool.ts';
import { findCredentialByHash, type AuthenticatedCredential } from '../db/queries/identities.ts';

export type CredentialProblem = 'missing' | 'invalid' | 'expired' | 'revoked';

/**
 * How the credential reached us: an HTTP request to the API, or the HTTP
 * requests of a tool-protocol connection to /mcp/participate. The recovery
 * names the check the client can run on the channel it is using.
 */
export type Channel = 'http' | 'tool';

/** A base64url secret of at least 32 bytes (43 characters), bounded above. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43,512}$/;

const HELP = '/agent-help/authentication.json';

/** docs/api.md, Authentication: `verify_direct_credential` is GET /api/whoami; `verify_oauth_connection` is the whoami tool. */
export const RETRY: Record<Channel, Record<string, string>> = {
  http: { method: 'GET', path: '/api/whoami' },
  // The tool call travels as a POST to the tool-protocol path.
  tool: { method: 'POST', path: '/mcp/participate', tool: 'whoami' },
};

/**
 * A tool-protocol connection that carries no credential is not connected
 * yet: an OAuth client whose browser flow has not finished, or a client whose
 * configuration lacks the bearer header. Either way a human fixes the
 * connection (no new identity), then the client calls the whoami tool.
 */
function connectionRequired(): ApiError {
  return apiError('connection_missing', undefined, {
    recovery: { next_action: 'verify_oauth_connection', human_action_required: true, help: HELP, retry: RETRY.tool },
  });
}

export function credentialError(problem: CredentialProblem, channel: Channel = 'http'): ApiError {
  if (problem === 'missing' && channel === 'tool') return connectionRequired();
  return apiError(problem, undefined, {
    recovery: {
      // A missing header usually means a client that has a credential forgot to send it.
      next_action: problem === 'missing' ? 'verify_direct_credential' : 'authentication_required',
      human_action_required: false,
      help: HELP,
      retry: RETRY[channel],
    },
  });
}

/** `prepared`: look the credential up with a named statement (not on the embedded database). */
export async function authenticate(
  db: Queryable,
  authorization: string | undefined,
  channel: Channel = 'http',
  options: { prepared?: boolean } = {},
): Promise<AuthenticatedCredential> {
  const refuse = (problem: CredentialProblem) => credentialError(problem, channel);
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!authorization || !match) throw refuse(authorization ? 'invalid' : 'missing');
  const secret = match[1]!;
  if (!SECRET_SHAPE.test(secret)) throw refuse('invalid');
  const credential = await findCredentialByHash(db, credentialHash(secret), options);
  if (!credential) throw refuse('invalid');
  if (credential.revoked_at) throw refuse('revoked');
  if (credential.expires_at.getTime() <= Date.now()) throw refuse('expired');
  return credential;
}

export function requireScope(credential: AuthenticatedCredential, scopes: readonly string[]): void {
  if (scopes.some((scope) => credential.scopes.includes(scope))) return;
  throw apiError('missing_scope', { scopes });
}

export const authorizationOf = (c: Context) => c.req.header('authorization');
