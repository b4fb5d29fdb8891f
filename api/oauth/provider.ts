/**
 * The OAuth 2.1 authorization server for the tool-protocol resource: panva's
 * oidc-provider (OpenID Certified, maintained, and complete for what the MCP
 * authorization specification asks), configured here and served by the
 * API's own Node server (see routes.ts). What it gives us, by feature:
 *
 * - RFC 8414 metadata at /.well-known/oauth-authorization-server;
 * - authorization code with PKCE, S256 only (the library has no `plain`),
 *   required for every client, and every client is public: no client
 *   secrets are issued, so none can leak;
 * - RFC 7591 dynamic client registration, open (chat clients register
 *   themselves), and Client ID Metadata Documents (https client ids);
 * - RFC 8707 resource indicators: the only resource is /mcp/participate,
 *   and every access token is bound to it (`aud`);
 * - short-lived opaque access tokens, refresh tokens rotated on every use,
 *   and reuse of a spent refresh token revokes the whole grant;
 * - RFC 7009 revocation.
 *
 * Everything it stores goes through the PostgreSQL adapter, hashed.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES } from '../../core/schemas/fields.ts';
import type { AppDeps } from '../app-deps.ts';
import { MCP_PATH } from '../mcp/path.ts';
import { createPostgresAdapter } from './adapter.ts';
import { renderOAuthError } from './error-page.ts';

/** Access tokens are short-lived: a client refreshes, and a revoked connection stops within this. */
export const ACCESS_TOKEN_TTL_SECONDS = 10 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** A consent lasts until revoked, or until its refresh tokens have not been used for their lifetime. */
const GRANT_TTL_SECONDS = 365 * 24 * 60 * 60;

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

export const INTERACTION_PATH = '/oauth/interaction';

export const resourceUrlOf = (publicOrigin: string) => `${publicOrigin}${MCP_PATH}`;

/**
 * Signing keys are only for the library's own JWTs (none are issued to
 * clients: access tokens are opaque); cookie keys sign its short-lived
 * interaction cookies. Both are made per process unless configured, which
 * only costs a person an interrupted sign-in when another process answers.
 */
function keysOf(secret: string | undefined) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256', kid: 'k1' }] },
    cookieKeys: [secret ?? randomBytes(32).toString('base64url')],
  };
}

export function createOAuthProvider({ config, pool, logger, oauthFetch }: AppDeps): Provider {
  const resource = resourceUrlOf(config.PUBLIC_ORIGIN);
  const { jwks, cookieKeys } = keysOf(config.OAUTH_COOKIE_SECRET);
  const configuration: Configuration = {
    adapter: createPostgresAdapter(pool),
    jwks: jwks as Configuration['jwks'],
    cookies: { keys: cookieKeys },
    routes: OAUTH_ROUTES,
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // The library's own signing key is EC (see keysOf); no ID tokens reach clients without `openid`.
      id_token_signed_response_alg: 'ES256',
    },
    // Clients register with the eight SPEC scopes (MCP clients copy them from the resource metadata), so
    // the library must know them; what a token carries is the resource's grant (resourceIndicators below).
    scopes: ['offline_access', ...SCOPES],
    discovery: { scopes_supported: [...SCOPES], service_documentation: `${config.PUBLIC_ORIGIN}/docs/chat` },
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope: SCOPES.join(' '), audience: resource, accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Every client may keep its connection: refresh tokens whenever it registered for them, not only with offline_access.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 30 * 60,
      Session: 24 * 60 * 60,
      Grant: GRANT_TTL_SECONDS,
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    // The account id is the identity id; there are no OpenID claims beyond `sub`.
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Browser-based clients may call the token endpoint from the origin of one of their redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    renderError: renderOAuthError,
    // Unset (the library's SSRF-guarded fetch) everywhere but the tests of Client ID Metadata Documents.
    ...(oauthFetch ? { fetch: oauthFetch } : {}),
  };
  const provider = new Provider(config.PUBLIC_ORIGIN, configuration);
  // Behind trusted proxies, the client address is the entry that many hops from the right (docs/security.md).
  provider.proxy = config.TRUSTED_PROXY_HOPS > 0;
  provider.maxIpsCount = config.TRUSTED_PROXY_HOPS;
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    logger.error({ path: ctx.path, err: { message: error.message, stack: error.stack } }, 'oauth server error');
  });
  return provider;
}
