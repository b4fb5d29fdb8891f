/**
 * /account: the signed-in person's connections, each with a revoke button,
 * and sign-out. Plain HTML forms (no JavaScript), each with the session's
 * CSRF token; a form answers 303 back to /account (post/redirect/get).
 * The page is the Astro route site/pages/account/index.astro, rendered on
 * demand with the view built here.
 */
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import type { Rendered } from '../../projections/html.ts';
import { listConnections, revokeConnection } from '../../db/queries/oauth.ts';
import type { AccountPageView } from '../../core/account-views.ts';
import type { AppDeps } from '../app-deps.ts';
import { readFormBody } from '../http/body.ts';
import { CACHE, sendRepresentation } from '../http/representation.ts';
import { csrfTokenOf, endSession, readSession, requireSameOriginForm } from './session.ts';

export const SIGNIN_PATH = '/account/signin';

/** An on-demand page: never cached, under the policy its own <meta> tag states. */
export function sendPage(c: Context, rendered: Rendered, contentSecurityPolicy?: string): Response {
  if (rendered.status !== 200) throw new Error(`account page rendered with status ${rendered.status}`);
  return sendRepresentation(c, {
    body: rendered.body,
    contentType: rendered.contentType,
    cacheControl: CACHE.private,
    contentSecurityPolicy,
  });
}

export function signInRedirect(c: Context, returnTo: string): Response {
  return c.redirect(`${SIGNIN_PATH}?return_to=${encodeURIComponent(returnTo)}`, 303);
}

const NOTICES: Record<string, string> = {
  revoked: 'The connection was revoked. Its client can no longer call the tools; its tokens are gone.',
  signed_in: 'You are signed in.',
};

const noticeOf = (done: string | undefined) =>
  done !== undefined && Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined;

export interface AuthorizationServerHooks {
  revokeGrant: (grantId: string) => Promise<void>;
  /** Ends this browser's session with the authorization server. */
  endAuthorizationSession: (c: Context) => Promise<void>;
}

export function createAccountPages(
  { config, pool, html, fence }: AppDeps,
  { revokeGrant, endAuthorizationSession }: AuthorizationServerHooks,
) {
  return {
    async account(c: Context): Promise<Response> {
      const session = await readSession(c, pool);
      if (!session) return signInRedirect(c, '/account');
      const connections = await listConnections(pool, session.account.identity_id);
      const view: AccountPageView = {
        handle: session.account.handle,
        identity_id: session.account.identity_id,
        csrf: csrfTokenOf(session),
        connections: connections.map((row) => ({
          grant_id: row.grant_id,
          client_name: row.client_name,
          scopes: row.scopes,
          created_at: row.created_at.toISOString(),
          last_used_at: row.last_used_at?.toISOString() ?? null,
        })),
        // Only a notice of its own: `done=valueOf` must not reach the page as Object.prototype's function.
        notice: noticeOf(c.req.query('done')),
      };
      return sendPage(c, await html.renderRoute('/account', { account: view }));
    },

    /**
     * Ends both sessions: the account's, and this browser's with the
     * authorization server (which would otherwise still name this account).
     * Never refused by the serving fence: the browser forgets both cookies
     * and gets the signed-out page; only deleting the stored rows waits for
     * open writes (session.ts, routes.ts).
     */
    async signOut(c: Context): Promise<Response> {
      const form = await readFormBody(c);
      const session = await readSession(c, pool);
      // Origin first, session or not: another site's form must not even clear this site's cookies.
      requireSameOriginForm(c, config.PUBLIC_ORIGIN, session, form.get('csrf'));
      await endSession(c, pool, fence, session, config.PUBLIC_ORIGIN);
      await endAuthorizationSession(c);
      return c.redirect(SIGNIN_PATH, 303);
    },

    /** Revoking ends the connection for good: its row is marked, its grant and every token of it deleted. */
    async revoke(c: Context): Promise<Response> {
      await fence.refuseWhileFenced();
      const form = await readFormBody(c);
      const session = await readSession(c, pool);
      if (!session) return signInRedirect(c, '/account');
      requireSameOriginForm(c, config.PUBLIC_ORIGIN, session, form.get('csrf'));
      const grantId = c.req.param('id') ?? '';
      const revoked = await revokeConnection(pool, grantId, session.account.identity_id);
      if (!revoked) {
        throw apiError('unknown_connection');
      }
      await revokeGrant(grantId);
      return c.redirect('/account?done=revoked', 303);
    },
  };
}
