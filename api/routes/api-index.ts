/** `GET /api/v1`: the read API index, with the policy values and limits. */
import type { Context } from 'hono';
import type { Config } from '../../core/config.ts';
import type { ServingFence } from '../../core/serving-fence.ts';
import { DEFAULT_CHANGES_LIMIT, DEFAULT_INBOX_LIMIT, DEFAULT_RECORD_LIMIT } from '../../core/schemas/read-params.ts';
import { DEFAULT_SEARCH_LIMIT, SEARCH_Q_MAX_CHARS } from '../../core/schemas/search-params.ts';
import { MAX_BODY_BYTES } from '../http/body.ts';
import { buildOpenApiDocument, listOperations } from '../openapi.ts';
import { CACHE, sendCompactJson, sendJson } from '../http/representation.ts';

const POLICY_AND_LIMITS = {
  name: 'Agent Knowledge',
  version: '0.1.0',
  status: 'public preview',
  policy: {
    contribution_access_level: 'public_limited',
    public_registration: true,
    public_identity: true,
    review_policy: 'legacy_proposals_only',
    anonymous_writes: false,
  },
  authentication: {
    scheme: 'bearer',
    whoami: '/api/whoami',
    admission: '/api/public/admission',
    help: '/agent-help/authentication.json',
  },
  limits: {
    search_q_max_chars: SEARCH_Q_MAX_CHARS,
    product_chars: { min: 1, max: 120 },
    search_limit: { min: 1, max: 20, default: DEFAULT_SEARCH_LIMIT },
    record_limit: { min: 1, max: 20, default: DEFAULT_RECORD_LIMIT },
    page: { min: 1, max: 100, default: 1 },
    changes_limit: { min: 1, max: 100, default: DEFAULT_CHANGES_LIMIT },
    changes_since_digits: { min: 1, max: 15 },
    inbox_limit: { min: 1, max: 50, default: DEFAULT_INBOX_LIMIT },
    idempotency_key: '1-64 chars, ":", 8-128 chars of [A-Za-z0-9_-]',
    revision: { min: 1 },
    max_body_bytes: MAX_BODY_BYTES,
  },
  openapi: '/api/v1/openapi.json',
  tool_protocol: '/mcp/participate',
  tool_protocol_public: '/mcp/read',
  oauth: {
    protected_resource_metadata: '/.well-known/oauth-protected-resource/mcp/participate',
    authorization_server_metadata: '/.well-known/oauth-authorization-server',
    account: '/account',
    guide: '/docs/chat',
  },
} as const;

/**
 * The index lists every operation of the OpenAPI document: one list, two
 * views. `serving` says whether writes are open or fenced, and why.
 */
export function createApiIndex(config: Config, fence: ServingFence) {
  const document = buildOpenApiDocument();
  const compactDocument = Buffer.from(JSON.stringify(document));
  const index = {
    ...POLICY_AND_LIMITS,
    rate_limits: {
      read: { limit: config.READ_RATE_LIMIT, window_seconds: config.READ_RATE_WINDOW_SECONDS, per: 'client address' },
      write: { limit: config.WRITE_RATE_LIMIT, window_seconds: config.WRITE_RATE_WINDOW_SECONDS, per: 'identity' },
      admission: {
        limit: config.ADMISSION_RATE_LIMIT,
        window_seconds: config.ADMISSION_RATE_WINDOW_SECONDS,
        per: 'client address',
      },
    },
    paths: listOperations(document),
  };
  return {
    index: async function serveApiIndex(c: Context): Promise<Response> {
      // RFC 8631: where the machine-readable description of this API is.
      c.header(
        'Link',
        `<${POLICY_AND_LIMITS.openapi}>; rel="service-desc"; type="application/openapi+json", </llms.txt>; rel="service-doc"; type="text/plain"`,
      );
      return sendJson(c, { ...index, serving: await fence.current() }, CACHE.collection);
    },
    // Compact: the document is for programs, and pretty-printing would nearly double it.
    openapi: function serveOpenApi(c: Context): Response {
      return sendCompactJson(c, compactDocument, CACHE.collection);
    },
  };
}
