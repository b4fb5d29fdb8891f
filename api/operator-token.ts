/**
 * The operator token: configured by the deployment as its SHA-256 only
 * (OPERATOR_TOKEN_SHA256), presented as a bearer. It guards the operator
 * endpoints and /metrics on the service port; no agent credential reaches them.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { apiError } from '../core/errors.ts';
import { sha256Hex } from '../core/hash.ts';

export function requireOperator(c: Context, expectedHash: string | undefined): void {
  if (!expectedHash) throw apiError('operator_disabled');
  const token = /^Bearer[ ]+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const given = Buffer.from(sha256Hex(token ?? ''), 'hex');
  if (!token || !timingSafeEqual(given, Buffer.from(expectedHash, 'hex'))) throw apiError('operator_token_required');
}
