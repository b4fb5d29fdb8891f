/**
 * The authorization server on the API's own Node server, and the pages a
 * person sees in the middle of it:
 *
 * - oidc-provider is a Koa app; its handler gets Node's request and
 *   response (the @hono/node-server bindings) for its own paths and answers
 *   them itself (RESPONSE_ALREADY_SENT tells Hono it is done);
 * - /oauth/interaction/:uid is where it sends the browser: sign in with a
 *   passkey if needed (/account/signin, then back here), then consent,
 *   where the person sees the client and may clear any scope it asked for;
 * - /.well-known/oauth-protected-resource[/mcp/participate] is the
 *   protected resource metadata (RFC 9728) clients start from.
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type Provider from 'oidc-provider';
import { SCOPES } from '../../core/schemas/fields.ts';
import { upsertConnection } from '../../db/queries/oauth.ts';
import { CONTENT_SECURITY_POLICY } from '../../core/content-security-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import { readFormBody, readGuardedBodyText } from '../http/body.ts';
import { clientAddress } from '../limits/rate-limit.ts';
import { apiError } from '../../core/errors.ts';
import { clearCookie, csrfTokenOf, readSession, requireSameOriginForm } from '../account/session.ts';
import { writeUnlessFenced } from '../writes/optional-write.ts';
import { sendPage, signInRedirect } from '../account/pages.ts';
import { MCP_PATH } from '../mcp/path.ts';
import { CACHE } from '../http/representation.ts';
import { deleteGrant, keepClient } from './adapter.ts';
import { ERROR_PAGE_HEADERS, oauthErrorPage } from './error-page.ts';
import { createOAuthProvider, INTERACTION_PATH, OAUTH_ROUTES, resourceUrlOf } from './provider.ts';
import { redactText } from '../../core/redact-secrets.ts';
import { withUnstorableReplaced } from '../../core/unstorable.ts';

/** A client's name as pages show and store it: the client wrote it, so it is contribution text and scanned like any. */
function shownClientName(name: unknown, clientId: string): string {
  // A metadata document is fetched, not sent through the input guard: what the text rule refuses (a NUL,
  // which PostgreSQL cannot store; a control; a bidi override that would reverse the consent text after
  // the name) becomes the replacement character rather than a failed consent.
  return withUnstorableReplaced(redactText(typeof name === 'string' && name !== '' ? name : clientId).value);
}

/**
 * A registration's body with secrets in its client names (`client_name`, and a language's `client_name#…`)
 * replaced, as in every contribution text, before the library stores the client and echoes its metadata.
 * Anything but a JSON object is left to the library to refuse.
 */
function withClientNameRedacted(body: string): string {
  let metadata: unknown;
  try {
    metadata = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return body;
  let changed = false;
  const fields = metadata as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (!/^client_name(#|$)/.test(name) || typeof value !== 'string') continue;
    const redacted = redactText(value);
    if (redacted.redacted) {
      fields[name] = redacted.value;
      changed = true;
    }
  }
  return changed ? JSON.stringify(fields) : body;
}

/**
 * The Node request and response for the library, with the request's host
 * made the configured public origin's: the library builds every URL it
 * answers (metadata endpoints, redirects) from the request, and a Host or
 * X-Forwarded-Host header is whatever the client sent.
 */
function nodeOf(c: Context, publicOrigin: string): HttpBindings {
  const bindings = c.env as HttpBindings;
  const { headers } = bindings.incoming;
  const origin = new URL(publicOrigin);
  headers.host = origin.host;
  delete headers['x-forwarded-host'];
  headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
  return bindings;
}

/** What the library answers without writing anything: its metadata and its public keys. */
const READ_ONLY_PATHS = new Set([
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  OAUTH_ROUTES.jwks,
]);

const listOf = (value: unknown): string[] => [value].flat().filter((v): v is string => typeof v === 'string');

/** form-action must allow the client's redirect: browsers apply it to the redirects a form submission follows. */
function consentPolicy(redirectUri: string): string {
  const url = URL.parse(redirectUri);
  const target = !url ? '' : url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${target ? ` ${target}` : ''}`);
}

export function createOAuthRoutes(deps: AppDeps) {
  const { config, pool, html, fence, rateLimit } = deps;
  const node = (c: Context) => nodeOf(c, config.PUBLIC_ORIGIN);
  // Made on first use: the issuer is the public origin, which tests only know once the server listens.
  let instance: Provider | undefined;
  const provider = () => (instance ??= createOAuthProvider(deps));

  const expired = (c: Context) =>
    c.body(
      oauthErrorPage(
        'interaction_expired',
        'This sign-in request is unknown or has expired. Start connecting again from the chat client.',
      ),
      400,
      ERROR_PAGE_HEADERS,
    );

  /** The interaction this browser is in, or null when its cookie and the path disagree or it has expired. */
  async function interactionOf(c: Context) {
    const { incoming, outgoing } = node(c);
    try {
      const details = await provider().interactionDetails(incoming, outgoing);
      return details.uid === c.req.param('uid') ? details : null;
    } catch {
      return null;
    }
  }

  return {
    provider,

    revokeGrant: (grantId: string) => deleteGrant(pool, grantId),

    /**
     * Everything under /oauth/ that is not an interaction page, and the
     * server metadata. All but the metadata and keys write (interactions,
     * sessions, codes, tokens, clients), so the fence refuses them first.
     * Registration is also bounded per client key and in size.
     */
    async serve(c: Context): Promise<Response> {
      if (c.req.method !== 'OPTIONS' && !READ_ONLY_PATHS.has(c.req.path)) await fence.refuseWhileFenced();
      if (c.req.method === 'POST' && c.req.path === OAUTH_ROUTES.registration) {
        // Counted before the size check, so oversized attempts spend the budget too.
        await rateLimit(c, 'registration', clientAddress(c, config.TRUSTED_PROXY_HOPS), {
          limit: config.CLIENT_REGISTRATION_RATE_LIMIT,
          windowSeconds: config.CLIENT_REGISTRATION_RATE_WINDOW_SECONDS,
        });
        const declared = Number(c.req.header('content-length') ?? NaN);
        // No declared length (a chunked body) is refused too: the limit must hold before the library reads.
        if (!(declared <= config.CLIENT_REGISTRATION_MAX_BYTES)) {
          throw apiError('registration_too_large', { limit: config.CLIENT_REGISTRATION_MAX_BYTES }, { field: 'body' });
        }
      }
      const { incoming, outgoing } = node(c);
      // Read here, through the input guard; the provider takes a body already read from `req.body`.
      let body = c.req.method === 'POST' ? await readGuardedBodyText(c) : null;
      if (body !== null && c.req.path === OAUTH_ROUTES.registration) body = withClientNameRedacted(body);
      if (body !== null) Object.assign(incoming, { body });
      await provider().callback()(incoming, outgoing);
      return RESPONSE_ALREADY_SENT;
    },

    /**
     * Ends this browser's session with the authorization server (sign-out):
     * its cookie goes always (and its signature cookie with it), so the next
     * request starts from the account session; the stored session is deleted
     * unless writes are fenced.
     */
    async endAuthorizationSession(c: Context): Promise<void> {
      const { incoming, outgoing } = node(c);
      const session = await provider().Session.get(provider().createContext(incoming, outgoing));
      const name = provider().cookieName('session');
      for (const cookie of [name, `${name}.sig`]) clearCookie(c, cookie, config.PUBLIC_ORIGIN);
      await writeUnlessFenced(fence, () => session.destroy());
    },

    async interaction(c: Context): Promise<Response> {
      const details = await interactionOf(c);
      if (!details) return expired(c);
      const session = await readSession(c, pool);
      if (!session) return signInRedirect(c, `${INTERACTION_PATH}/${details.uid}`);
      const client = await provider().Client.find(String(details.params.client_id));
      if (!client) return expired(c);
      const asked = new Set(listOf(details.params.scope).flatMap((s) => s.split(' ')));
      const redirectUri = String(details.params.redirect_uri ?? '');
      const policy = consentPolicy(redirectUri);
      const rendered = await html.renderRoute('/oauth/consent', {
        consent: {
          uid: details.uid,
          csrf: csrfTokenOf(session),
          handle: session.account.handle,
          client_name: shownClientName(client.clientName, client.clientId),
          client_id: client.clientId,
          redirect_uri: redirectUri,
          scopes: SCOPES.filter((scope) => asked.has(scope)),
          resource: resourceUrlOf(config.PUBLIC_ORIGIN),
          content_security_policy: policy,
        },
      });
      return sendPage(c, rendered, policy);
    },

    /** Approve: a grant for the scopes left checked (the rest recorded as refused), then back to the client. */
    async confirm(c: Context): Promise<Response> {
      await fence.refuseWhileFenced();
      const form = await readFormBody(c);
      const session = await readSession(c, pool);
      const details = await interactionOf(c);
      if (!details) return expired(c);
      if (!session) return signInRedirect(c, `${INTERACTION_PATH}/${details.uid}`);
      requireSameOriginForm(c, config.PUBLIC_ORIGIN, session, form.get('csrf'));
      const clientId = String(details.params.client_id);
      const client = await provider().Client.find(clientId);
      if (!client) return expired(c);
      const asked = listOf(details.params.scope)
        .flatMap((s) => s.split(' '))
        .filter(Boolean);
      const kept = new Set(form.getAll('scope'));
      const resource = resourceUrlOf(config.PUBLIC_ORIGIN);
      const accountId = session.account.identity_id;
      const grant = new (provider().Grant)({ accountId, clientId });
      const granted = SCOPES.filter((scope) => asked.includes(scope) && kept.has(scope));
      const refused = asked.filter((scope) => (SCOPES as readonly string[]).includes(scope) && !kept.has(scope));
      grant.addResourceScope(resource, granted.join(' '));
      if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
      // The same names are library-level scopes too (see provider.ts): record the same decision there.
      grant.addOIDCScope([...granted, ...asked.filter((scope) => scope === 'offline_access')].join(' '));
      if (refused.length) grant.rejectOIDCScope(refused.join(' '));
      const grantId = await grant.save();
      try {
        // The client kept first: a connection is never stored for a grant that is then destroyed.
        await keepClient(pool, clientId);
        await upsertConnection(pool, {
          grantId,
          identityId: accountId,
          clientId,
          clientName: shownClientName(client.clientName, clientId),
          scopes: granted,
        });
      } catch (error) {
        // No grant without its connection: the account could neither see nor revoke it.
        await grant.destroy().catch(() => undefined);
        throw error;
      }
      const { incoming, outgoing } = node(c);
      await provider().interactionFinished(
        incoming,
        outgoing,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return RESPONSE_ALREADY_SENT;
    },

    /** Deny: the client hears access_denied and nothing is granted. */
    async abort(c: Context): Promise<Response> {
      await fence.refuseWhileFenced();
      const form = await readFormBody(c);
      const session = await readSession(c, pool);
      const details = await interactionOf(c);
      if (!details) return expired(c);
      requireSameOriginForm(c, config.PUBLIC_ORIGIN, session, form.get('csrf'));
      const { incoming, outgoing } = node(c);
      await provider().interactionFinished(
        incoming,
        outgoing,
        {
          error: 'access_denied',
          error_description: 'The person declined the connection.',
        },
        { mergeWithLastSubmission: false },
      );
      return RESPONSE_ALREADY_SENT;
    },

    /** RFC 9728: which authorization server issues tokens for /mcp/participate, and its scopes. */
    protectedResourceMetadata(c: Context): Response {
      return c.json(
        {
          resource: resourceUrlOf(config.PUBLIC_ORIGIN),
          authorization_servers: [config.PUBLIC_ORIGIN],
          scopes_supported: [...SCOPES],
          bearer_methods_supported: ['header'],
          resource_name: `Agent Knowledge tool protocol (${MCP_PATH})`,
          resource_documentation: `${config.PUBLIC_ORIGIN}/docs/chat`,
        },
        200,
        { 'Cache-Control': CACHE.collection, 'Access-Control-Allow-Origin': '*' },
      );
    },
  };
}
