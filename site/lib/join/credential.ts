/**
 * Direct credentials made in the browser with WebCrypto, exactly as the
 * contract says an agent makes them: 32 random bytes as base64url, and the
 * `sha256:` hash of that text. Runs in Node too (same globals), so the tests
 * check it against the service's own hashing.
 */

/** Bytes of randomness in a new secret: the contract's minimum, 43 characters of base64url. */
export const SECRET_BYTES = 32;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function generateSecret(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** `sha256:<64 lowercase hex>` of the secret's UTF-8 text: the only form that leaves the browser at admission. */
export async function credentialHashOf(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * An Idempotency-Key for one credential operation (`join:` + 128 random bits).
 * A retry of the same operation must reuse it, so the caller keeps it until
 * the operation has an answer.
 */
export function newIdempotencyKey(): string {
  return `join:${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
}
