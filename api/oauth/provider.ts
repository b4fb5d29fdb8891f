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
 * What it is not given: pushed authorization requests (not served, so not
 * advertised), and the request's Host: every URL it builds starts from
 * PUBLIC_ORIGIN (routes.ts hands it the request with that host).
 *
 * Who is signed in is the account session's to say (api/account/session.ts):
 * the library's own session is believed only while it names the same
 * account, so a sign-out or another person's sign-in on the same browser
 * is never answered with the previous person's grant. And an error is only
 * sent back to a client's redirect URI without the person's involvement when
 * the person signed in now has approved that client (RFC 9700, 4.11); every
 * other error is a page of its own.
 *
 * Everything it stores goes through the PostgreSQL adapter, hashed.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Queryable } from '../../db/pool.ts';
import { findLiveConnectionOf } from '../../db/queries/oauth.ts';
import { accountIdOfSessionSecret, SESSION_COOKIE } from '../account/session.ts';
import { SCOPES } from '../../core/schemas/fields.ts';
import type { AppDeps } from '../app-deps.ts';
import { MCP_PATH } from '../mcp/path.ts';
import { createPostgresAdapter } from './adapter.ts';
import { createClientDocumentFetch } from './client-document-fetch.ts';
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

const APPROVED = Symbol('client approved by the signed-in account');

/**
 * RFC 9700, 4.11: the authorization endpoint sends an error to the client's
 * redirect URI only for a client the signed-in person has approved (a live
 * connection); for any other client the error is shown on our own page
 * (renderError), so a registered redirect URI cannot be used to bounce a
 * browser anywhere without the person. After the consent page (the `resume`
 * route) the person has seen the client, and the library's answer stands.
 * The library reads `allow_redirect` after emitting the event.
 */
function keepUnapprovedErrorsHome(ctx: KoaContextWithOIDC, error: errors.OIDCProviderError): void {
  if (ctx.oidc?.route !== 'authorization') return;
  if ((ctx.state as { [APPROVED]?: boolean })[APPROVED]) return;
  (error as { allow_redirect: boolean }).allow_redirect = false;
}

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

/** The identity of the account session this request carries (our cookie, not the library's), or null. */
async function signedInAccount(ctx: KoaContextWithOIDC, pool: Queryable): Promise<string | null> {
  const secret = ctx.cookies.get(SESSION_COOKIE, { signed: false });
  return secret ? accountIdOfSessionSecret(pool, secret) : null;
}

/** Where the account session's identity is kept for the rest of one request. */
const SIGNED_IN = Symbol('signed-in account');
type WithAccount = { state: { [SIGNED_IN]?: Promise<string | null> } };
const accountOf = (ctx: KoaContextWithOIDC, pool: Queryable) =>
  ((ctx as unknown as WithAccount).state[SIGNED_IN] ??= signedInAccount(ctx, pool));

/**
 * The library's prompts, with one more login check: its session must name
 * the account signed in now. Otherwise login (and so consent) is asked
 * again, and `prompt=none` answers login_required instead of a token.
 */
function interactionPolicyFor(pool: Queryable) {
  const prompts = interactionPolicy.base();
  prompts.get('login')!.checks.add(
    new interactionPolicy.Check(
      'account_session_changed',
      'The account signed in on this site is not the one of this authorization session',
      async (ctx) => {
        const sessionAccount = ctx.oidc.session?.accountId;
        if (!sessionAccount) return interactionPolicy.Check.NO_NEED_TO_PROMPT; // The library's no_session check asks then.
        return (await accountOf(ctx, pool)) === sessionAccount
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );
  return prompts;
}

export function createOAuthProvider({ config, pool, logger, oauthFetch }: AppDeps): Provider {
  const resource = resourceUrlOf(config.PUBLIC_ORIGIN);
  const { jwks, cookieKeys } = keysOf(config.OAUTH_COOKIE_SECRET);
  const configuration: Configuration = {
    adapter: createPostgresAdapter(pool, { unusedClientSeconds: config.CLIENT_UNUSED_TTL_SECONDS }),
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
      // Not served (no route reaches it), so not advertised either.
      pushedAuthorizationRequests: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'opaque',
          };
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
    interactions: {
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
      policy: interactionPolicyFor(pool),
    },
    // The account id is the identity id; there are no OpenID claims beyond `sub`.
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Browser-based clients may call the token endpoint from the origin of one of their redirect URIs.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    renderError: renderOAuthError,
    // Resolve, check, connect to the checked address (client-document-fetch.ts); tests of documents on loopback pass their own.
    fetch: oauthFetch ?? createClientDocumentFetch(),
  };
  const provider = new Provider(config.PUBLIC_ORIGIN, configuration);
  // Behind trusted proxies, the client address is the entry that many hops from the right (docs/security.md).
  provider.proxy = config.TRUSTED_PROXY_HOPS > 0;
  provider.maxIpsCount = config.TRUSTED_PROXY_HOPS;
  // Before the authorization endpoint runs: whether the person signed in now has approved the client named.
  provider.use(async (ctx, next) => {
    if (ctx.path === OAUTH_ROUTES.authorization && typeof ctx.query.client_id === 'string') {
      const account = await accountOf(ctx as KoaContextWithOIDC, pool);
      (ctx.state as { [APPROVED]?: boolean })[APPROVED] =
        account !== null && (await findLiveConnectionOf(pool, account, ctx.query.client_id));
    }
    await next();
  });
  provider.on('authorization.error', keepUnapprovedErrorsHome);
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    keepUnapprovedErrorsHome(ctx, error as errors.OIDCProviderError);
    logger.error({ path: ctx.path, err: { message: error.message, stack: error.stack } }, 'oauth server error');
  });
  return provider;
}
