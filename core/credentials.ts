/** Credential rules shared by admission (API) and rotation (worker). */
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
