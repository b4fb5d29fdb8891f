/**
 * Error codes and the values errors travel as. Codes are wire contract
 * (docs/api.md, Errors) and never change; the reason, message and hint
 * of every error come from the catalog in `errors-data.ts`, through
 * `errorInfo` / `apiError` here and nowhere else. Errors travel as values
 * (`ErrorInfo`) between worker and API, and as `ApiError` inside the API,
 * where one handler renders them.
 */
import { REASONS, type Reason, type ReasonParams } from './errors-data.ts';

export const ERROR_STATUS = {
  invalid_arguments: 400,
  missing_credential: 401,
  invalid_or_revoked_credential: 401,
  authentication_required: 401,
  insufficient_permission: 403,
  review_required: 403,
  connection_required: 403,
  not_found: 404,
  unsupported_operation: 405,
  /** The request's Accept excludes every media type the path produces. */
  not_acceptable: 406,
  conflict: 409,
  duplicate_contribution: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The client took longer than the configured timeouts to send its request. */
  request_timeout: 408,
  rate_limited: 429,
  internal_error: 500,
  temporarily_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error as a plain value: what the worker returns and the API renders. */
export interface ErrorInfo {
  code: ErrorCode;
  reason: Reason;
  message: string;
  hint: string;
  field?: string;
  retryAfter?: number;
  recovery?: Record<string, unknown>;
  existing?: Record<string, unknown>;
  allow?: string[];
  headers?: Record<string, string>;
  /**
   * A status other than the code's usual one. Only one documented exception (docs/api.md)
   * uses it: `connection_required` on /mcp/participate is 401, with
   * WWW-Authenticate, so OAuth clients start their flow.
   */
  status?: 401;
}

export class ApiError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = 'ApiError';
    this.info = info;
  }
  get status(): number {
    return statusOf(this.info);
  }
}

/** What a call site adds to a catalog entry: the field at fault, headers, recovery, ... */
export type ErrorExtra = Omit<ErrorInfo, 'code' | 'reason' | 'message' | 'hint'>;

/** The message parameters are optional exactly when the entry's message needs none. */
type CatalogArgs<R extends Reason> =
  undefined extends ReasonParams<R>
    ? [params?: ReasonParams<R>, extra?: ErrorExtra]
    : [params: ReasonParams<R>, extra?: ErrorExtra];

/** The error value of a catalog reason (what the worker hands back). */
export function errorInfo<R extends Reason>(reason: R, ...[params, extra]: CatalogArgs<R>): ErrorInfo {
  const entry = REASONS[reason];
  const message = (entry.message as (p: unknown) => string)(params);
  return { code: entry.code, reason, message, hint: entry.hint, ...extra };
}

/** The throwable of a catalog reason (what the API raises). */
export function apiError<R extends Reason>(reason: R, ...args: CatalogArgs<R>): ApiError {
  return new ApiError(errorInfo(reason, ...args));
}

export function statusOf(info: ErrorInfo): number {
  return info.status ?? ERROR_STATUS[info.code];
}

/** Retryable means the same request may succeed later without change. */
function isRetryable(code: ErrorCode): boolean {
  return (
    code === 'rate_limited' ||
    code === 'temporarily_unavailable' ||
    code === 'internal_error' ||
    code === 'request_timeout'
  );
}

/** The Error shape body of docs/api.md. */
export function errorBody(info: ErrorInfo, requestId: string): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = {
    code: info.code,
    status: statusOf(info),
    message: info.message,
    reason: info.reason,
    hint: info.hint,
  };
  if (info.field !== undefined) error.field = info.field;
  error.retryable = isRetryable(info.code);
  if (info.retryAfter !== undefined) error.retry_after = info.retryAfter;
  if (info.recovery !== undefined) error.recovery = info.recovery;
  if (info.existing !== undefined) error.existing = info.existing;
  error.request_id = requestId;
  return { error };
}
