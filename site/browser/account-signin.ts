/**
 * /account/signin in the browser: the passkey ceremonies, on
 * @simplewebauthn/browser. Each is "ask the service for options, let the
 * browser's authenticator answer, send the answer back"; on success the
 * service has set the session cookie and names the page to go to.
 * Nothing secret passes through this script: the private key never leaves
 * the authenticator.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

interface ErrorBody {
  error?: { message?: string; code?: string; reason?: string };
}

function showError(message: string, code = '', reason = ''): void {
  const box = $('signin-error');
  box.querySelector('[data-field="message"]')!.textContent = message;
  box.querySelector('[data-field="code"]')!.textContent = code;
  box.querySelector('[data-field="reason"]')!.textContent = reason;
  box.hidden = false;
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown> & ErrorBody;
  if (!response.ok) {
    const error = answer.error ?? {};
    throw Object.assign(new Error(error.message ?? `The service answered ${response.status}.`), {
      code: error.code,
      reason: error.reason,
    });
  }
  return answer;
}

const returnTo = new URLSearchParams(location.search).get('return_to') ?? undefined;

async function ceremony(work: () => Promise<Record<string, unknown>>): Promise<void> {
  $('signin-error').hidden = true;
  try {
    const done = await work();
    location.assign(typeof done.redirect === 'string' ? done.redirect : '/account');
  } catch (error) {
    const e = error as Error & { code?: string; reason?: string };
    // The browser's own refusal (cancelled, timed out) is a DOMException; say so plainly.
    showError(
      e.name === 'NotAllowedError' ? 'The passkey request was cancelled or timed out.' : e.message,
      e.code,
      e.reason,
    );
  }
}

if (browserSupportsWebAuthn()) {
  for (const id of ['passkey-signin', 'passkey-signup']) $(id).hidden = false;
  $('signin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void ceremony(async () => {
      const { ceremony: id, options } = await post('/account/passkeys/signin/options', {});
      const response = await startAuthentication({ optionsJSON: options as never });
      return post('/account/passkeys/signin', { ceremony: id, response, return_to: returnTo });
    });
  });
  $('signup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const handle = $<HTMLInputElement>('signup-handle').value.trim();
    void ceremony(async () => {
      const { ceremony: id, options } = await post('/account/passkeys/register/options', { handle });
      const response = await startRegistration({ optionsJSON: options as never });
      return post('/account/passkeys/register', { ceremony: id, response, return_to: returnTo });
    });
  });
} else {
  showError('This browser does not support passkeys. Use one that does, or a direct credential at /join.');
}
