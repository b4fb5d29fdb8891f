/**
 * /join in the browser: create a direct credential (secret made here, only
 * its hash sent), show the secret once, verify it, rotate or revoke it.
 *
 * The secret lives in this module's memory; it reaches the DOM only while it
 * is being shown once, and the network only in the Authorization header.
 * Nothing is logged and nothing goes into a URL.
 */
import { createJoinApi, type CredentialInfo, type ErrorView, type Identity } from '../lib/join/api.ts';
import { credentialHashOf, generateSecret, newIdempotencyKey } from '../lib/join/credential.ts';
import { forgetSecret, rememberedSecret, rememberSecret } from '../lib/join/remember.ts';

const api = createJoinApi();

/** The credential verified last: what rotate and revoke act on. */
let current: { secret: string; epoch: number } | null = null;
/** Whether the user asked to remember the credential in use. */
let remembering = false;
/**
 * A rotation or revocation sent but not answered (the network failed): its
 * retry must reuse the same Idempotency-Key and body, so the service replays
 * the first one instead of acting twice.
 */
let pendingRotation: { key: string; secret: string; hash: string; from: string; epoch: number } | null = null;
let pendingRevocation: { key: string; from: string } | null = null;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const field = (root: HTMLElement, name: string) => root.querySelector<HTMLElement>(`[data-field="${name}"]`)!;

function showError(error: ErrorView): void {
  const box = $('error');
  field(box, 'message').textContent = error.message;
  field(box, 'status').textContent = String(error.status);
  field(box, 'code').textContent = error.code;
  field(box, 'reason').textContent = error.reason;
  field(box, 'next-action').textContent = error.nextAction ?? '(none)';
  field(box, 'request-id').textContent = error.requestId ?? '(none)';
  box.hidden = false;
}

function showNotice(text: string): void {
  $('notice').textContent = text;
  $('notice').hidden = false;
}

function showVerified(identity: Identity, credential: CredentialInfo): void {
  const box = $('whoami-result');
  field(box, 'identity').textContent = identity.id;
  field(box, 'kind').textContent = identity.kind;
  field(box, 'handle').textContent = identity.handle ?? '(none)';
  field(box, 'credential').textContent = credential.id;
  field(box, 'epoch').textContent = String(credential.epoch);
  field(box, 'expires').textContent = credential.expires_at;
  field(box, 'scopes').textContent = credential.scopes.join(', ');
  box.hidden = false;
}

function clearStatus(): void {
  $('error').hidden = true;
  $('notice').hidden = true;
  $('whoami-result').hidden = true;
  $('copy-status').textContent = '';
}

function revealSecret(secret: string): void {
  $('secret-value').textContent = secret;
  $('secret').hidden = false;
}

function hideSecret(): void {
  $('secret-value').textContent = '';
  $('secret').hidden = true;
}

async function verify(secret: string): Promise<boolean> {
  const answer = await api.whoami(secret);
  $('manage').hidden = !answer.ok;
  if (!answer.ok) {
    current = null;
    showError(answer.error);
    return false;
  }
  current = { secret, epoch: answer.body.credential.epoch };
  showVerified(answer.body.identity, answer.body.credential);
  return true;
}

/** Switches to a new secret: shown once, remembered only if the user opted in, then verified. */
async function adopt(secret: string, remember: boolean): Promise<void> {
  remembering = remember;
  if (remember) rememberSecret(secret);
  revealSecret(secret);
  await verify(secret);
}

async function create(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const kind = data.get('kind') === 'guest' ? 'guest' : 'pseudonymous';
  const handle = String(data.get('handle') ?? '').trim();
  const boxes = [...form.querySelectorAll<HTMLInputElement>('input[name="scope"]:not(:disabled)')];
  const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
  const secret = generateSecret();
  const answer = await api.admit({
    kind,
    ...(kind === 'pseudonymous' && handle ? { handle } : {}),
    credential_hash: await credentialHashOf(secret),
    // All boxes checked means the kind's full set, which is what omitting scopes asks for.
    ...(scopes.length < boxes.length ? { scopes } : {}),
  });
  if (!answer.ok) {
    showError(answer.error); // the unused secret is simply dropped
    return;
  }
  await adopt(secret, $<HTMLInputElement>('remember').checked);
}

async function rotate(): Promise<void> {
  if (!current) return;
  if (!pendingRotation || pendingRotation.from !== current.secret) {
    const secret = generateSecret();
    pendingRotation = {
      key: newIdempotencyKey(),
      secret,
      hash: await credentialHashOf(secret),
      from: current.secret,
      epoch: current.epoch,
    };
  }
  const { key, secret, hash, from, epoch } = pendingRotation;
  const answer = await api.rotate(from, epoch, hash, key);
  if (!answer.ok) {
    if (answer.error.status !== 0) pendingRotation = null; // answered: a retry is a new rotation
    showError(answer.error);
    return;
  }
  pendingRotation = null;
  await adopt(secret, remembering);
}

async function revoke(): Promise<void> {
  if (!current) return;
  if (!pendingRevocation || pendingRevocation.from !== current.secret) {
    pendingRevocation = { key: newIdempotencyKey(), from: current.secret };
  }
  const answer = await api.revoke(pendingRevocation.from, pendingRevocation.key);
  if (!answer.ok) {
    if (answer.error.status !== 0) pendingRevocation = null;
    showError(answer.error);
    return;
  }
  if (rememberedSecret() === pendingRevocation.from) forgetSecret();
  pendingRevocation = null;
  current = null;
  hideSecret();
  $('manage').hidden = true;
  $('remembered').hidden = rememberedSecret() === null;
  showNotice('Revoked. This credential now answers 401 (reason revoked) everywhere.');
}

function syncKind(form: HTMLFormElement): void {
  const guest = new FormData(form).get('kind') === 'guest';
  $<HTMLInputElement>('handle').disabled = guest;
  const knowledge = form.querySelector<HTMLInputElement>('input[name="scope"][value="knowledge"]')!;
  knowledge.disabled = guest;
  if (guest) knowledge.checked = false;
}

/** Runs an action with its button disabled, so a double click cannot send twice. */
function guarded(button: HTMLButtonElement | null, action: () => Promise<void>): () => void {
  return () => {
    if (button?.disabled) return;
    if (button) button.disabled = true;
    clearStatus();
    void action().finally(() => {
      if (button) button.disabled = false;
    });
  };
}

function start(): void {
  for (const section of document.querySelectorAll<HTMLElement>('[data-requires-script]')) section.hidden = false;
  const createForm = $<HTMLFormElement>('create-form');
  syncKind(createForm);
  createForm.addEventListener('change', () => syncKind(createForm));
  createForm.addEventListener('submit', (event) => {
    event.preventDefault();
    guarded(createForm.querySelector('button[type="submit"]'), () => create(createForm))();
  });

  const verifyForm = $<HTMLFormElement>('verify-form');
  verifyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = $<HTMLInputElement>('secret-input');
    const secret = input.value.trim();
    input.value = '';
    hideSecret();
    remembering = false;
    guarded(verifyForm.querySelector('button[type="submit"]'), () => verify(secret).then(() => undefined))();
  });

  $('remembered').hidden = rememberedSecret() === null;
  $('use-remembered').addEventListener('click', () => {
    const secret = rememberedSecret();
    if (!secret) return;
    remembering = true;
    guarded(null, () => verify(secret).then(() => undefined))();
  });
  $('forget').addEventListener('click', () => {
    forgetSecret();
    remembering = false;
    $('remembered').hidden = true;
  });

  $('copy-secret').addEventListener('click', () => {
    const text = $('secret-value').textContent ?? '';
    navigator.clipboard.writeText(text).then(
      () => {
        $('copy-status').textContent = 'Copied.';
      },
      () => {
        window.getSelection()?.selectAllChildren($('secret-value'));
        $('copy-status').textContent = 'Selected: copy it with your keyboard.';
      },
    );
  });
  $('secret-saved').addEventListener('click', hideSecret);

  $('rotate').addEventListener('click', guarded($<HTMLButtonElement>('rotate'), rotate));
  const confirm = $<HTMLInputElement>('revoke-confirm');
  confirm.addEventListener('change', () => {
    $<HTMLButtonElement>('revoke').disabled = !confirm.checked;
  });
  $('revoke').addEventListener('click', () => {
    // Stays disabled until the user confirms again.
    confirm.checked = false;
    $<HTMLButtonElement>('revoke').disabled = true;
    guarded(null, revoke)();
  });
}

start();
