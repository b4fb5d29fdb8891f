/** The idempotency rule (CONTRACT.md, Writes), in one place for the API and the worker. */
import type { ErrorInfo } from './errors.ts';
import { canonicalJson, sha256Hex } from './hash.ts';

/** What makes two writes "the same": operation, target and canonical body. */
export function requestHashOf(operation: string, targetId: string | undefined, body: unknown): string {
  return sha256Hex(canonicalJson({ operation, target: targetId ?? null, body }));
}

export function idempotencyMismatch(): ErrorInfo {
  return {
    code: 'conflict',
    reason: 'idempotency_payload_mismatch',
    field: 'Idempotency-Key',
    message: 'This Idempotency-Key was already used with a different operation or body. Use a new key for a new operation.',
  };
}
