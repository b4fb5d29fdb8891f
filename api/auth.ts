/**
 * Bearer credentials: looked up by the SHA-256 of the secret (the only form
 * stored), then checked for revocation, expiry and scope (the rule of
 * core/credentials.ts, which the commit applies again). Every 401 carries
 * the recovery metadata of docs/api.md, built here and nowhere else.
 */
import type { Context } from 'hono';
import { credentialProblem, type CredentialState } from '../core/credentials.ts';
import { apiError, type ApiError, type ErrorInfo } from '../core/errors.ts';
import { credentialHash } from '../core/hash.ts';
import type { Queryable } from '../db/pool.ts';
import { findCredentialByHash, type AuthenticatedCredential } from '../db/queries/identities.ts';

export type CredentialProblem = 'missing' | CredentialState;

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

/** What a client whose OAuth connection is refused does: a human connects it again, then it calls the whoami tool. */
export const CONNECTION_RECOVERY = {
  next_action: 'verify_oauth_connection',
  human_action_required: true,
  help: '/docs/chat',
  retry: RETRY.tool,
};

const credentialRecovery = (problem: CredentialProblem, channel: Channel) => ({
  // A missing header usually means a client that has a credential forgot to send it.
  next_action: problem === 'missing' ? 'verify_direct_credential' : 'authentication_required',
  human_action_required: false,
  help: HELP,
  retry: RETRY[channel],
});

export function credentialError(problem: CredentialProblem, channel: Channel = 'http'): ApiError {
  if (problem === 'missing' && channel === 'tool') return connectionRequired();
  return apiError(problem, undefined, { recovery: credentialRecovery(problem, channel) });
}

/**
 * A refusal the commit answered for the write's credential or connection
 * (revoked or expired after the request was checked, core/credentials.ts):
 * the catalog error the worker sent, with the recovery of the channel the
 * client used, as a refusal at request time carries it. Any other error is
 * answered as it is.
 */
export function withCallerRecovery(info: ErrorInfo, channel: Channel): ErrorInfo {
  if (info.code !== 'invalid_or_revoked_credential' || info.recovery) return info;
  const recovery =
    info.reason === 'connection_revoked' || info.reason === 'token_wrong_resource'
      ? CONNECTION_RECOVERY
      : credentialRecovery(info.reason as CredentialProblem, channel);
  return { ...info, recovery };
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
  const problem = credentialProblem(credential, new Date());
  if (problem) throw refuse(problem);
  return credential!;
}

export function requireScope(credential: AuthenticatedCredential, scopes: readonly string[]): void {
  if (scopes.some((scope) => credential.scopes.includes(scope))) return;
  throw apiError('missing_scope', { scopes });
}

export const authorizationOf = (c: Context) => c.req.header('authorization');
