/**
 * Who is calling /mcp/participate: the protected-resource side of OAuth
 * (MCP authorization specification; docs/chat-clients.md).
 *
 * - No Authorization header: 401 `connection_required` with
 *   `WWW-Authenticate: Bearer resource_metadata="…"`, so an OAuth-capable
 *   client discovers the authorization server and starts sign-in itself.
 * - An OAuth access token: it must be live, bound to this resource (RFC 8707
 *   `aud`) and its connection not revoked; the caller is the account's
 *   identity with the token's scopes.
 * - Anything else is a direct credential, checked as on every HTTP path.
 *
 * A refusal of a presented token also carries `error="invalid_token"`, and a
 * tool call whose scope the token lacks is refused before it runs with
 * `error="insufficient_scope"` naming the scope (the specification's step-up).
 */
import type { Context } from 'hono';
import type Provider from 'oidc-provider';
import { connectionProblem } from '../../core/credentials.ts';
import { apiError, ApiError } from '../../core/errors.ts';
import { findIdentity, type AuthenticatedCredential } from '../../db/queries/identities.ts';
import { findConnection, touchConnection } from '../../db/queries/oauth.ts';
import type { AppDeps } from '../app-deps.ts';
import { CONNECTION_RECOVERY, credentialError } from '../auth.ts';
import { writeUnlessFenced } from '../writes/optional-write.ts';
import { MCP_PATH } from './path.ts';

/** What whoami tells an OAuth-connected client about its connection. */
export interface ConnectionFacts {
  id: string;
  client_id: string;
  client_name: string;
  scopes: string[];
  created_at: string;
  /** When the access token in use expires; the client refreshes it before then. */
  expires_at: string;
}

export interface ToolCaller extends AuthenticatedCredential {
  /** Set when the caller presented an OAuth access token rather than a direct credential. */
  connection?: ConnectionFacts;
}

export const protectedResourceMetadataUrl = (publicOrigin: string) =>
  `${publicOrigin}/.well-known/oauth-protected-resource${MCP_PATH}`;

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

function challenge(publicOrigin: string, extra: Record<string, string> = {}): string {
  const params = { ...extra, resource_metadata: protectedResourceMetadataUrl(publicOrigin) };
  return `Bearer ${Object.entries(params)
    .map(([k, v]) => `${k}=${quoted(v)}`)
    .join(', ')}`;
}

/** The contract's one 401 `connection_required`: auth.ts's refusal, with the 401 and the challenge. */
function connectionRequired(publicOrigin: string): ApiError {
  return challenged(credentialError('missing', 'tool'), { status: 401 }, challenge(publicOrigin));
}

/** Adds the challenge (and a status) to a refusal built from the catalog. */
function challenged(error: ApiError, extra: { status?: 401 }, header: string): ApiError {
  Object.assign(error.info, extra, { headers: { ...error.info.headers, 'WWW-Authenticate': header } });
  return error;
}

const withInvalidToken = (error: ApiError, publicOrigin: string, description: string) =>
  challenged(error, {}, challenge(publicOrigin, { error: 'invalid_token', error_description: description }));

/** A presented OAuth token refused: the catalog's reason, recovery for a connection, and the invalid_token challenge. */
function oauthRefusal(publicOrigin: string, refusal: 'token_wrong_resource' | 'connection_revoked'): ApiError {
  const error = apiError(refusal, undefined, { recovery: CONNECTION_RECOVERY });
  return withInvalidToken(error, publicOrigin, error.message);
}

/**
 * Marks the connection used, when writes are open: a tool call must not fail
 * because this stamp cannot be written (an operator's fence, a read-only
 * database), and the stamp is only a hint on /account.
 */
async function stampUse(pool: AppDeps['pool'], fence: AppDeps['fence'], grantId: string): Promise<void> {
  await writeUnlessFenced(fence, () => touchConnection(pool, grantId));
}

export function createConnectionAuthenticator(
  { config, pool, authenticate, fence }: AppDeps,
  provider: () => Provider,
) {
  const resource = () => `${config.PUBLIC_ORIGIN}${MCP_PATH}`;

  async function fromAccessToken(value: string): Promise<ToolCaller | null> {
    const token = await provider().AccessToken.find(value);
    if (!token) return null;
    const origin = config.PUBLIC_ORIGIN;
    const audiences = [token.aud ?? []].flat();
    if (!audiences.includes(resource())) throw oauthRefusal(origin, 'token_wrong_resource');
    const connection = await findConnection(pool, token.grantId);
    // The rule the commit applies again to the connection's writes (core/credentials.ts).
    if (!connection || connectionProblem(connection)) throw oauthRefusal(origin, 'connection_revoked');
    const identity = await findIdentity(pool, token.accountId);
    if (!identity) throw oauthRefusal(origin, 'connection_revoked');
    await stampUse(pool, fence, connection.grant_id);
    const scopes = (token.scope ?? '').split(' ').filter(Boolean);
    const expiresAt = new Date((token.exp ?? 0) * 1000);
    return {
      id: connection.grant_id,
      identity_id: identity.id,
      identity,
      scopes,
      epoch: 1,
      expires_at: expiresAt,
      revoked_at: null,
      connection: {
        id: connection.grant_id,
        client_id: connection.client_id,
        client_name: connection.client_name,
        scopes,
        created_at: connection.created_at.toISOString(),
        expires_at: expiresAt.toISOString(),
      },
    };
  }

  return async function authenticateCaller(c: Context): Promise<ToolCaller> {
    const authorization = c.req.header('authorization');
    if (!authorization) throw connectionRequired(config.PUBLIC_ORIGIN);
    const bearer = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1];
    const viaOAuth = bearer ? await fromAccessToken(bearer) : null;
    if (viaOAuth) return viaOAuth;
    try {
      // A direct credential, under the per-address bound on failed checks (api/limits/auth-failures.ts).
      return await authenticate(c, authorization, 'tool');
    } catch (error) {
      // Unknown to both: an expired or revoked OAuth token looks like this too, so the client may refresh.
      if (error instanceof ApiError && error.status === 401) {
        throw withInvalidToken(error, config.PUBLIC_ORIGIN, 'The token is unknown, expired or revoked.');
      }
      throw error;
    }
  };
}

/** Tool calls in one POST (a message or a batch) and the scopes each needs (any one of them). */
export function requireToolScopes(
  caller: ToolCaller,
  message: unknown,
  scopesOf: (tool: string) => readonly string[] | undefined,
  publicOrigin: string,
): void {
  if (!caller.connection) return; // Direct credentials are refused inside the call, as over HTTP.
  for (const item of [message].flat()) {
    const params = item as { method?: unknown; params?: { name?: unknown } } | null;
    if (params?.method !== 'tools/call' || typeof params.params?.name !== 'string') continue;
    const needed = scopesOf(params.params.name);
    if (!needed || needed.some((scope) => caller.scopes.includes(scope))) continue;
    throw apiError(
      'missing_scope',
      { scopes: needed },
      {
        headers: {
          'WWW-Authenticate': challenge(publicOrigin, { error: 'insufficient_scope', scope: needed.join(' ') }),
        },
      },
    );
  }
}

/** Direct-credential management is not for OAuth connections: they are revoked on /account or at /oauth/revoke. */
export function requireDirectCredential(caller: ToolCaller, operation: string): void {
  if (!caller.connection) return;
  throw apiError('not_a_direct_credential', { operation });
}
