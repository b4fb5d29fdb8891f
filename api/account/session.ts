/**
 * Browser sessions of accounts: a random secret in a cookie, stored as its
 * SHA-256. The cookie is HttpOnly, SameSite=Lax, and Secure whenever the
 * service is served over https, so a script or another site never reads it.
 *
 * CSRF: every form carries a token derived from the session secret
 * (SHA-256 of a label and the secret). Another site can neither read the
 * cookie nor the page, so it cannot produce the token; nothing is stored.
 * Forms are also refused when an Origin header names another origin.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { apiError } from '../../core/errors.ts';
import { credentialHash, sha256Hex } from '../../core/hash.ts';
import type { Queryable } from '../../db/pool.ts';
import { deleteSession, findSessionAccount, insertSession, type AccountRow } from '../../db/queries/accounts.ts';
import type { ServingFence } from '../../core/serving-fence.ts';
import { writeUnlessFenced } from '../writes/optional-write.ts';

export const SESSION_COOKIE = 'ak_session';
/** A session ends a week after sign-in; signing in again starts a new one. */
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface AccountSession {
  account: AccountRow;
  /** The cookie's secret: only ever used to derive the CSRF token. */
  secret: string;
}

const cookieOptions = (publicOrigin: string) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'Lax' as const,
  secure: publicOrigin.startsWith('https:'),
});

export async function readSession(c: Context, db: Queryable): Promise<AccountSession | null> {
  const secret = getCookie(c, SESSION_COOKIE);
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const account = await findSessionAccount(db, credentialHash(secret));
  return account ? { account, secret } : null;
}

/** The identity a session cookie's secret signs in, or null (the authorization server's login check). */
export async function accountIdOfSessionSecret(db: Queryable, secret: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  return (await findSessionAccount(db, credentialHash(secret)))?.identity_id ?? null;
}

export async function startSession(c: Context, db: Queryable, identityId: string, publicOrigin: string): Promise<void> {
  const secret = randomBytes(32).toString('base64url');
  await insertSession(db, credentialHash(secret), identityId, new Date(Date.now() + SESSION_TTL_SECONDS * 1000));
  setCookie(c, SESSION_COOKIE, secret, { ...cookieOptions(publicOrigin), maxAge: SESSION_TTL_SECONDS });
}

/**
 * Signs this browser out. The cookie always goes, fence or not: a person on
 * a shared computer must be able to sign out. The stored session is deleted
 * unless writes are fenced; then it is left to lapse at its expiry, and no
 * browser holds its secret any more.
 */
export async function endSession(
  c: Context,
  db: Queryable,
  fence: ServingFence,
  session: AccountSession | null,
  publicOrigin: string,
): Promise<void> {
  deleteCookie(c, SESSION_COOKIE, cookieOptions(publicOrigin));
  if (session) await writeUnlessFenced(fence, () => deleteSession(db, credentialHash(session.secret)));
}

/** Removes a cookie of this site from the browser, with the attributes every cookie here is set with. */
export function clearCookie(c: Context, name: string, publicOrigin: string): void {
  deleteCookie(c, name, cookieOptions(publicOrigin));
}

export function csrfTokenOf(session: AccountSession): string {
  return sha256Hex(`csrf\0${session.secret}`);
}

/** Refuses a form that did not come from one of our own pages for this session. */
export function requireSameOriginForm(
  c: Context,
  publicOrigin: string,
  session: AccountSession | null,
  token: unknown,
): void {
  const origin = c.req.header('origin');
  // Our pages send no referrer, so browsers send `Origin: null` on their form posts; the token decides then.
  if (origin !== undefined && origin !== 'null' && origin !== publicOrigin) {
    throw apiError('origin_not_allowed', { where: 'this form (send it from this site’s own pages)' });
  }
  if (!session) return;
  const expected = Buffer.from(csrfTokenOf(session));
  const given = Buffer.from(typeof token === 'string' ? token : '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw apiError('csrf_token_invalid');
  }
}

/** A path on this site to go back to after signing in; anything else becomes /account. */
export function localReturnPath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : '/account';
}
