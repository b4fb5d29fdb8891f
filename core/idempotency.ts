/** The idempotency rule (docs/api.md, Writes), in one place for the API and the worker. */
import { errorInfo, type ErrorInfo } from './errors.ts';
import { canonicalJson, sha256Hex } from './hash.ts';

/** What makes two writes "the same": operation, target and canonical body. */
export function requestHashOf(operation: string, targetId: string | undefined, body: unknown): string {
  return sha256Hex(canonicalJson({ operation, target: targetId ?? null, body }));
}

export function idempotencyMismatch(): ErrorInfo {
  return errorInfo('idempotency_payload_mismatch', undefined, { field: 'Idempotency-Key' });
}
