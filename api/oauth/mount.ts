/**
 * Every path of accounts and OAuth, registered on the app in one place so
 * app.ts gains two lines: the account pages and passkey ceremonies, the
 * authorization server (oidc-provider) with its metadata, the interaction
 * pages, and the protected resource metadata. Answers the authenticator
 * /mcp/participate uses.
 */
import type { Hono } from 'hono';
import { createAccountPages } from '../account/pages.ts';
import { createPasskeyHandlers } from '../account/passkeys.ts';
import type { AppDeps, AppEnv } from '../app-deps.ts';
import { createConnectionAuthenticator } from '../mcp/connection-auth.ts';
import { MCP_PATH } from '../mcp/path.ts';
import type { HttpBindings } from '@hono/node-server';
import { allowOf, resource, type Methods } from '../http/routing.ts';
import { INTERACTION_PATH, OAUTH_ROUTES } from './provider.ts';
import { createOAuthRoutes } from './routes.ts';

/**
 * What oidc-provider answers itself, with the methods each takes: RFC 8414
 * metadata (and its OpenID twin), the endpoints it names there, and the
 * authorization endpoint's resume path that an interaction returns to.
 */
export const AUTHORIZATION_SERVER_PATHS: Record<string, ('GET' | 'POST')[]> = {
  '/.well-known/oauth-authorization-server': ['GET'],
  '/.well-known/openid-configuration': ['GET'],
  // GET only: MCP clients navigate the browser there; a form POST is not a flow we offer.
  [OAUTH_ROUTES.authorization]: ['GET'],
  [`${OAUTH_ROUTES.authorization}/:uid`]: ['GET'],
  [OAUTH_ROUTES.token]: ['POST'],
  [OAUTH_ROUTES.registration]: ['POST'],
  [OAUTH_ROUTES.revocation]: ['POST'],
  [OAUTH_ROUTES.jwks]: ['GET'],
};
/** RFC 9728: at the root and suffixed with the resource's path. */
export const PROTECTED_RESOURCE_METADATA_PATHS = [
  '/.well-known/oauth-protected-resource',
  `/.well-known/oauth-protected-resource${MCP_PATH}`,
];

export function mountAccountsAndOAuth(app: Hono<AppEnv>, deps: AppDeps) {
  const oauth = createOAuthRoutes(deps);
  const passkeys = createPasskeyHandlers(deps, oauth);
  const pages = createAccountPages(deps, oauth);

  resource(app, '/account', { GET: pages.account });
  resource(app, '/account/signout', { POST: pages.signOut });
  resource(app, '/account/connections/:id/revoke', { POST: pages.revoke });
  resource(app, '/account/passkeys/register/options', { POST: passkeys.registerOptions });
  resource(app, '/account/passkeys/register', { POST: passkeys.register });
  resource(app, '/account/passkeys/signin/options', { POST: passkeys.authenticateOptions });
  resource(app, '/account/passkeys/signin', { POST: passkeys.authenticate });

  resource(app, `${INTERACTION_PATH}/:uid`, { GET: oauth.interaction });
  resource(app, `${INTERACTION_PATH}/:uid/confirm`, { POST: oauth.confirm });
  resource(app, `${INTERACTION_PATH}/:uid/abort`, { POST: oauth.abort });
  for (const [path, methods] of Object.entries(AUTHORIZATION_SERVER_PATHS)) {
    const handlers: Methods = Object.fromEntries(methods.map((method) => [method, oauth.serve]));
    const allow = allowOf(handlers);
    // A browser client's CORS preflight is the library's to answer (token, revocation, metadata); other OPTIONS list Allow.
    app.options(path, async (c, next) => {
      if (!c.req.header('origin') || !c.req.header('access-control-request-method')) return next();
      (c.env as HttpBindings).outgoing.setHeader('Allow', allow);
      return oauth.serve(c);
    });
    resource(app, path, handlers);
  }
  for (const path of PROTECTED_RESOURCE_METADATA_PATHS) resource(app, path, { GET: oauth.protectedResourceMetadata });

  return { authenticateCaller: createConnectionAuthenticator(deps, oauth.provider) };
}
