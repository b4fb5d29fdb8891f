/**
 * The OpenAPI entries of accounts and the authorization server (the tool
 * protocol's endpoints are in api/mcp/openapi.ts). Kept here, beside the routes they describe;
 * api/openapi.ts adds them to the document (and so to /api/v1's list).
 */
type Json = Record<string, unknown>;

const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const error = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Error' }) });
const oauthError = (description: string) => ({
  description: `${description} An OAuth error: {"error", "error_description"} (RFC 6749), not the Error shape.`,
  ...json({
    type: 'object',
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
    required: ['error'],
  }),
});
const form = (properties: Json) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties } } },
});
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const seeOther = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' } } } });
const passkeyAnswer = {
  type: 'object',
  properties: { ceremony: { type: 'string' }, response: { type: 'object' }, return_to: { type: 'string' } },
  required: ['ceremony', 'response'],
};

export const ACCOUNT_AND_OAUTH_OPERATIONS: { path: string; method: 'get' | 'post'; operation: Json }[] = [
  ...['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp/participate'].map((path) => ({
    path,
    method: 'get' as const,
    operation: {
      summary: 'Protected resource metadata (RFC 9728) of /mcp/participate: its authorization server and scopes.',
      responses: {
        200: { description: 'OK.', ...json({ type: 'object', required: ['resource', 'authorization_servers'] }) },
      },
    },
  })),
  ...['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'].map((path) => ({
    path,
    method: 'get' as const,
    operation: {
      summary:
        'Authorization server metadata (RFC 8414): endpoints, PKCE S256, scopes, dynamic registration, revocation.',
      responses: { 200: { description: 'OK.', ...json({ type: 'object', required: ['issuer'] }) } },
    },
  })),
  {
    path: '/oauth/authorize',
    method: 'get',
    operation: {
      summary:
        'Authorization endpoint (code flow, PKCE S256 required, resource = /mcp/participate). A browser navigation: sign-in and consent follow.',
      responses: {
        303: seeOther(
          'To the interaction page, or back to the client with a code, or with an OAuth error when the signed-in person has approved that client.',
        ),
        400: html(
          'An unknown client, an unregistered redirect_uri, or any error for a client the signed-in person never approved (RFC 9700, 4.11): shown to the person, never redirected.',
        ),
        503: error('Writes are fenced (serving_fenced): an authorization writes its interaction and session.'),
      },
    },
  },
  {
    path: '/oauth/token',
    method: 'post',
    operation: {
      summary:
        'Token endpoint: authorization_code (with code_verifier) and refresh_token (rotated on every use; reuse revokes the grant).',
      requestBody: form({
        grant_type: { type: 'string' },
        code: { type: 'string' },
        code_verifier: { type: 'string' },
        refresh_token: { type: 'string' },
        client_id: { type: 'string' },
        resource: { type: 'string' },
      }),
      responses: {
        200: {
          description: 'Tokens: an opaque access token (10 minutes) and a refresh token.',
          ...json({ type: 'object' }),
        },
        400: oauthError('invalid_grant, invalid_request, invalid_target…'),
        503: error(
          'Writes are fenced (serving_fenced): tokens are not issued; access tokens already issued keep working for reads.',
        ),
      },
    },
  },
  {
    path: '/oauth/register',
    method: 'post',
    operation: {
      summary:
        'Dynamic client registration (RFC 7591). Public clients only (token_endpoint_auth_method none): no client secret is issued.',
      requestBody: {
        required: true,
        ...json({
          type: 'object',
          properties: { redirect_uris: { type: 'array', items: { type: 'string' } }, client_name: { type: 'string' } },
        }),
      },
      responses: {
        201: {
          description:
            'Registered. A client no account connects with expires after CLIENT_UNUSED_TTL_SECONDS (a day by default).',
          ...json({ type: 'object' }),
        },
        400: oauthError('invalid_redirect_uri, invalid_client_metadata.'),
        413: error(
          'Metadata larger than CLIENT_REGISTRATION_MAX_BYTES, or sent without Content-Length (registration_too_large).',
        ),
        429: error(
          'Registrations from this client address (an IPv4 address or an IPv6 /64) past the limit (registration_rate_limited).',
        ),
        503: error('Writes are fenced (serving_fenced).'),
      },
    },
  },
  {
    path: '/oauth/revoke',
    method: 'post',
    operation: {
      summary: 'Token revocation (RFC 7009); revoking a refresh token ends the connection.',
      requestBody: form({ token: { type: 'string' }, client_id: { type: 'string' } }),
      responses: { 200: { description: 'Revoked (or unknown).' }, 400: oauthError('A malformed request.') },
    },
  },
  {
    path: '/oauth/jwks',
    method: 'get',
    operation: {
      summary:
        "The authorization server's public signing keys (access tokens are opaque; nothing a client must verify).",
      responses: {
        200: { description: 'A JWK set.', content: { 'application/jwk-set+json': { schema: { type: 'object' } } } },
      },
    },
  },
  {
    path: '/oauth/interaction/{id}',
    method: 'get',
    operation: {
      summary:
        'Sign-in (redirect to /account/signin) and the consent page of an authorization in progress (browser; no JavaScript).',
      parameters: [ID],
      responses: {
        200: html('The consent page: client, redirect, scopes as checkboxes.'),
        303: seeOther('To /account/signin when nobody is signed in.'),
        400: html('Unknown or expired.'),
      },
    },
  },
  {
    path: '/oauth/interaction/{id}/confirm',
    method: 'post',
    operation: {
      summary: 'Approve (browser form with the CSRF token): grants the scopes left checked.',
      parameters: [ID],
      requestBody: form({ csrf: { type: 'string' }, scope: { type: 'array', items: { type: 'string' } } }),
      responses: {
        303: seeOther('Back to the authorization endpoint, then to the client.'),
        400: html('Unknown or expired.'),
        403: error('Missing or stale CSRF token.'),
      },
    },
  },
  {
    path: '/oauth/interaction/{id}/abort',
    method: 'post',
    operation: {
      summary: 'Deny (browser form with the CSRF token): the client receives access_denied.',
      parameters: [ID],
      requestBody: form({ csrf: { type: 'string' } }),
      responses: {
        303: seeOther('Back to the client with error=access_denied.'),
        400: html('Unknown or expired.'),
        403: error('Missing or stale CSRF token.'),
      },
    },
  },
  {
    path: '/account',
    method: 'get',
    operation: {
      summary:
        'The signed-in account: its handle and chat connections (client, scopes, created, last used), each with a revoke form; sign-out.',
      responses: {
        200: html('The account page (no JavaScript needed).'),
        303: seeOther('To /account/signin when nobody is signed in.'),
      },
    },
  },
  {
    path: '/account/connections/{id}/revoke',
    method: 'post',
    operation: {
      summary: 'Revoke a connection (browser form with the CSRF token): its grant and every token of it are deleted.',
      parameters: [ID],
      requestBody: form({ csrf: { type: 'string' } }),
      responses: {
        303: seeOther('Back to /account, or to /account/signin when nobody is signed in.'),
        403: error('Missing or stale CSRF token, or a foreign Origin.'),
        // A browser (Accept: text/html) gets the site's not-found page.
        404: {
          description: 'No such live connection of this account.',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/Error' } },
            'text/html': { schema: { type: 'string' } },
          },
        },
      },
    },
  },
  {
    path: '/account/signout',
    method: 'post',
    operation: {
      summary:
        "Sign out (browser form with the CSRF token): the account session and this browser's authorization server session end.",
      requestBody: form({ csrf: { type: 'string' } }),
      responses: {
        303: seeOther('To /account/signin.'),
        403: error('Missing or stale CSRF token.'),
        503: error('The database cannot be reached. A fence never refuses sign-out.'),
      },
    },
  },
  ...(
    [
      [
        '/account/passkeys/register/options',
        'Sign-up, step 1: a free handle; answers a ceremony id and WebAuthn creation options.',
        { type: 'object', properties: { handle: { type: 'string' } }, required: ['handle'] },
      ],
      [
        '/account/passkeys/register',
        'Sign-up, step 2: the new passkey; creates the account, its identity and a session (cookie).',
        passkeyAnswer,
      ],
      [
        '/account/passkeys/signin/options',
        'Sign-in, step 1: a ceremony id and WebAuthn request options (any passkey of this site).',
        { type: 'object' },
      ],
      ['/account/passkeys/signin', 'Sign-in, step 2: the assertion; starts a session (cookie).', passkeyAnswer],
    ] as const
  ).map(([path, summary, body]) => ({
    path,
    method: 'post' as const,
    operation: {
      summary: `${summary} Same-origin JSON from /account/signin's script only.`,
      requestBody: { required: true, ...json(body) },
      responses: {
        200: { description: 'OK.', ...json({ type: 'object' }) },
        400: error('Invalid input, or a passkey answer that does not verify (passkey_not_verified).'),
        403: error('Foreign or missing Origin.'),
        409: error('Handle taken.'),
        429: error(
          'Ceremonies (passkey_ceremony_rate_limited) or sign-ups (admission_rate_limited) from this client address past the limit.',
        ),
        503: error('Writes are fenced (serving_fenced).'),
      },
    },
  })),
];
