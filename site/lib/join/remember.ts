/**
 * Remembering a secret in this browser, only when the user asks for it.
 *
 * Why opt-in: localStorage is plain text on disk, kept until cleared, and
 * readable by every script of this origin. Our CSP allows only our own
 * scripts, but on a shared or compromised machine a remembered secret is a
 * leaked one. So by default the secret lives only in the page's memory and is
 * gone when the tab closes; the user may choose convenience explicitly.
 */
const KEY = 'agent-knowledge.direct-credential';

export function rememberedSecret(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage disabled: nothing was remembered
  }
}

export function rememberSecret(secret: string): void {
  localStorage.setItem(KEY, secret);
}

export function forgetSecret(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // storage disabled: nothing to forget
  }
}
