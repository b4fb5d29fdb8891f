/** `GET /api/v1`: the read API index, with the policy values and limits. */
import type { Context } from 'hono';
import { DEFAULT_SEARCH_LIMIT, SEARCH_Q_MAX_CHARS } from '../../core/schemas/search-params.ts';
import { MAX_BODY_BYTES } from '../body.ts';
import { CACHE, sendJson } from '../representation.ts';

export const API_INDEX = {
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
  authentication: { scheme: 'bearer', whoami: '/api/whoami', admission: '/api/public/admission', help: '/agent-help/authentication.json' },
  limits: {
    search_q_max_chars: SEARCH_Q_MAX_CHARS,
    product_chars: { min: 1, max: 120 },
    search_limit: { min: 1, max: 20, default: DEFAULT_SEARCH_LIMIT },
    record_limit: { min: 1, max: 20, default: 20 },
    page: { min: 1, max: 100, default: 1 },
    changes_limit: { min: 1, max: 100 },
    changes_since_digits: { min: 1, max: 15 },
    inbox_limit: { min: 1, max: 50 },
    idempotency_key: '1-64 chars, ":", 8-128 chars of [A-Za-z0-9_-]',
    revision: { min: 1 },
    max_body_bytes: MAX_BODY_BYTES,
  },
  paths: {
    read: [
      'GET /api/v1', 'GET /api/v1/search', 'GET /api/search', 'GET /api/v1/problems/{id}', 'GET /api/v1/solutions/{id}',
      'GET /api/problems', 'GET /api/solutions',
      'GET /problems/{id}', 'GET /problems/{id}.json', 'GET /problems/{id}.md',
      'GET /solutions/{id}', 'GET /solutions/{id}.json', 'GET /solutions/{id}.md',
    ],
    identity: ['POST /api/public/admission', 'GET /api/whoami'],
    write: [
      'POST /api/problems', 'PATCH /api/problems/{id}', 'POST /api/solutions', 'PATCH /api/solutions/{id}',
      'POST /api/solutions/{id}/outcomes',
    ],
  },
} as const;

export function serveApiIndex(c: Context): Response {
  return sendJson(c, API_INDEX, CACHE.collection);
}
