/**
 * Structured logs. Secrets must never reach a log line: bearer headers,
 * credential hashes and idempotency keys are redacted wherever they appear
 * in logged objects, and nothing logs raw request headers or bodies.
 */
import pino, { type Logger } from 'pino';
import { stdoutDestination } from './log-destination.ts';

export type { Logger };

export const REDACT_PATHS = [
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization',
  'credential_hash', '*.credential_hash', 'body.credential_hash',
  'idempotencyKey', '*.idempotencyKey', 'idempotency_key', '*.idempotency_key',
  'secret', '*.secret',
];

/** A logger writing to `destination`, by default stdout in batches (infra/log-destination.ts). */
export function createLogger(level: string, name: string, destination: pino.DestinationStream = stdoutDestination()): Logger {
  return pino({ level, name, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}
