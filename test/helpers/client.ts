/** A small HTTP client for tests: an agent with a credential, and plain requests. */
import { randomBytes, randomUUID } from 'node:crypto';
import { credentialHash } from '../../core/hash.ts';

export interface Agent {
  id: string;
  secret: string;
  handle: string | null;
  credentialId: string;
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function newKey(): string {
  return `test:${randomUUID()}`;
}

/** `headers` go on the admission request (e.g. X-Forwarded-For, to admit from another client address). */
export async function admit(
  base: string,
  kind: 'guest' | 'pseudonymous' = 'pseudonymous',
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Agent> {
  const secret = newSecret();
  const handle = kind === 'pseudonymous' ? `agent-${randomBytes(4).toString('hex')}` : null;
  const res = await fetch(`${base}/api/public/admission`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ kind, ...(handle ? { handle } : {}), credential_hash: credentialHash(secret), ...extra }),
  });
  if (res.status !== 201) throw new Error(`admission answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { identity: { id: string }; credential: { id: string } };
  return { id: body.identity.id, secret, handle, credentialId: body.credential.id };
}

export interface WriteOptions {
  key?: string;
  headers?: Record<string, string>;
}

/** A write as an agent sends it: bearer, Idempotency-Key, JSON body. */
export async function send(
  base: string,
  agent: Agent | null,
  method: string,
  path: string,
  body: unknown,
  options: WriteOptions = {},
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': options.key ?? newKey(),
    ...(agent ? { authorization: `Bearer ${agent.secret}` } : {}),
    ...options.headers,
  };
  const res = await fetch(base + path, {
    method,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

export const problemBody = (over: Record<string, unknown> = {}) => ({
  title: 'Build fails with ENOSPC',
  body: 'The watcher runs out of inotify handles while building.',
  product: 'webpack',
  ...over,
});

/** Polls until `check` returns a value (or throws after `ms`). For waits on the worker's renders. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Asserts the Error shape of docs/api.md and returns the error object. */
export function errorOf(body: unknown): {
  code: string;
  status: number;
  message: string;
  reason: string;
  field?: string;
  request_id: string;
  retry_after?: number;
  recovery?: Record<string, unknown>;
  existing?: Record<string, any>;
} {
  const error = (body as { error?: unknown })?.error as Record<string, unknown> | undefined;
  if (
    !error ||
    typeof error.code !== 'string' ||
    typeof error.status !== 'number' ||
    typeof error.message !== 'string' ||
    typeof error.request_id !== 'string' ||
    typeof error.retryable !== 'boolean'
  ) {
    throw new Error(`not the Error shape: ${JSON.stringify(body)}`);
  }
  return error as never;
}
