/**
 * Credential rules shared by admission (API), authentication (API) and the
 * commit (worker): what a credential may hold, how long it lasts, and the
 * one rule of whether a presented credential or OAuth connection may act.
 */
import { errorInfo, type ErrorInfo } from './errors.ts';
import { SCOPES } from './schemas/fields.ts';

export const CREDENTIAL_LIFETIME_DAYS = 180;

/** Scopes each kind of identity may hold; omitted `scopes` at admission means all of them. */
export const SCOPES_BY_KIND = {
  guest: SCOPES.filter((s) => s !== 'knowledge'),
  pseudonymous: [...SCOPES],
} as const;

export function credentialExpiry(from = new Date()): Date {
  return new Date(from.getTime() + CREDENTIAL_LIFETIME_DAYS * 86_400_000);
}

/** Why a stored credential cannot act (the 401 reasons of docs/api.md); `missing` is the request's, not the credential's. */
export type CredentialState = 'invalid' | 'expired' | 'revoked';

/** Why a caller cannot act: its direct credential's state, or its OAuth connection revoked. */
export type CallerProblem = CredentialState | 'connection_revoked';

/**
 * The rule for a direct credential, applied when the API authenticates a
 * request and again when its write commits: unknown, revoked, then expired
 * at `now`; null when it may act.
 */
export function credentialProblem(
  credential: { revoked_at: Date | null; expires_at: Date } | null | undefined,
  now: Date,
): CredentialState | null {
  if (!credential) return 'invalid';
  if (credential.revoked_at) return 'revoked';
  if (credential.expires_at.getTime() <= now.getTime()) return 'expired';
  return null;
}

/**
 * The rule for an OAuth connection, at request time (api/mcp/connection-auth.ts)
 * and at commit: it acts while its row is there and not revoked, however its
 * grant ended (the person on /account, the client by RFC 7009, reuse).
 */
export function connectionProblem(connection: { revoked_at: Date | null } | null | undefined): CallerProblem | null {
  return !connection || connection.revoked_at ? 'connection_revoked' : null;
}

/**
 * The refusal of a write whose caller the commit finds unable to act: the
 * catalog error the API answers at request time (the API adds the recovery
 * of the channel the client used, api/auth.ts).
 */
export function refusalAtCommit(problem: CallerProblem): ErrorInfo {
  return problem === 'revoked' ? errorInfo('revoked', { duringCommit: true }) : errorInfo(problem);
}
