/**
 * The calls /join makes, typed, with every failure turned into one error
 * view (the contract's Error shape, or a network failure). The secret only
 * ever goes into the Authorization header; nothing here logs.
 */

export interface ErrorView {
  status: number;
  code: string;
  reason: string;
  message: string;
  nextAction?: string;
  requestId?: string;
}

export type Result<T> = { ok: true; status: number; body: T } | { ok: false; error: ErrorView };

export interface Identity {
  id: string;
  kind: 'guest' | 'pseudonymous';
  handle: string | null;
}

export interface CredentialInfo {
  id: string;
  scopes: string[];
  epoch: number;
  expires_at: string;
}

export interface AdmissionRequest {
  kind: 'guest' | 'pseudonymous';
  handle?: string;
  credential_hash: string;
  scopes?: string[];
}

export interface Receipt {
  operation: string;
  status: string;
  replayed: boolean;
}

function errorView(status: number, body: unknown): ErrorView {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error.code !== 'string') {
    return {
      status,
      code: 'unexpected_response',
      reason: `http_${status}`,
      message: `The service answered ${status} without an error body.`,
    };
  }
  const recovery = error.recovery as { next_action?: string } | undefined;
  return {
    status,
    code: error.code,
    reason: typeof error.reason === 'string' ? error.reason : error.code,
    message: typeof error.message === 'string' ? error.message : '',
    nextAction: recovery?.next_action,
    requestId: typeof error.request_id === 'string' ? error.request_id : undefined,
  };
}

async function call<T>(url: string, init: RequestInit): Promise<Result<T>> {
  let response: Response;
  try {
    // Credentials travel in the header we set, never as cookies.
    response = await fetch(url, { ...init, credentials: 'omit', cache: 'no-store' });
  } catch {
    return {
      ok: false,
      error: {
        status: 0,
        code: 'network_error',
        reason: 'unreachable',
        message: 'The service could not be reached. Nothing was changed that you cannot retry.',
      },
    };
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return response.ok
    ? { ok: true, status: response.status, body: body as T }
    : { ok: false, error: errorView(response.status, body) };
}

const json = (value: unknown) => JSON.stringify(value);
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** `base` is '' in the browser (same origin); tests pass the service's origin. */
export function createJoinApi(base = '') {
  return {
    admit: (request: AdmissionRequest) =>
      call<{ identity: Identity; credential: CredentialInfo }>(`${base}/api/public/admission`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: json(request),
      }),
    whoami: (secret: string) =>
      call<{ authenticated: true; identity: Identity; credential: CredentialInfo }>(`${base}/api/whoami`, {
        method: 'GET',
        headers: bearer(secret),
      }),
    rotate: (secret: string, epoch: number, credentialHash: string, idempotencyKey: string) =>
      call<Receipt>(`${base}/api/credentials/rotate`, {
        method: 'POST',
        headers: { ...bearer(secret), 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: json({ epoch, credential_hash: credentialHash }),
      }),
    revoke: (secret: string, idempotencyKey: string) =>
      call<Receipt>(`${base}/api/credentials/revoke`, {
        method: 'POST',
        headers: { ...bearer(secret), 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: '{}',
      }),
  };
}

export type JoinApi = ReturnType<typeof createJoinApi>;
