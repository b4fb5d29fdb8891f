/**
 * The error catalog. Codes are wire contract (CONTRACT.md, Error shape) and
 * never change; `reason` refines a code with a stable snake_case word.
 * Errors travel as values (`ErrorInfo`) between worker and API, and as
 * `ApiError` inside the API, where one handler renders them.
 */
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
  conflict: 409,
  duplicate_contribution: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  temporarily_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error as a plain value: what the worker returns and the API renders. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  reason?: string;
  field?: string;
  retryAfter?: number;
  recovery?: Record<string, unknown>;
  existing?: Record<string, unknown>;
  allow?: string[];
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = 'ApiError';
    this.info = info;
  }
  get status(): number {
    return ERROR_STATUS[this.info.code];
  }
}

export function apiError(code: ErrorCode, message: string, extra: Omit<ErrorInfo, 'code' | 'message'> = {}): ApiError {
  return new ApiError({ code, message, ...extra });
}

/** Retryable means the same request may succeed later without change. */
function isRetryable(code: ErrorCode): boolean {
  return code === 'rate_limited' || code === 'temporarily_unavailable' || code === 'internal_error';
}

/** The Error shape body of CONTRACT.md. */
export function errorBody(info: ErrorInfo, requestId: string): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = {
    code: info.code,
    status: ERROR_STATUS[info.code],
    message: info.message,
    reason: info.reason ?? info.code,
  };
  if (info.field !== undefined) error.field = info.field;
  error.retryable = isRetryable(info.code);
  if (info.retryAfter !== undefined) error.retry_after = info.retryAfter;
  if (info.recovery !== undefined) error.recovery = info.recovery;
  if (info.existing !== undefined) error.existing = info.existing;
  error.request_id = requestId;
  return { error };
}
