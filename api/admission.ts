/**
 * Admission: the one gate every new identity passes, whichever way it comes
 * (a direct credential at POST /api/public/admission, a passkey account at
 * sign-up). An OAuth connection makes no identity: it acts as the account
 * that approved it, which was admitted here when it signed up.
 *
 * `beginAdmission` runs before any work: the serving fence, then the
 * admission limit of the client key. The key it answers is then handed to
 * `admitIdentity` (db/queries/admission.ts) inside the transaction, which
 * cannot record an identity without it.
 */
import type { Context } from 'hono';
import type { AppDeps } from './app-deps.ts';
import { clientAddress } from './limits/rate-limit.ts';

export const admissionRule = (config: AppDeps['config']) => ({
  limit: config.ADMISSION_RATE_LIMIT,
  windowSeconds: config.ADMISSION_RATE_WINDOW_SECONDS,
});

/** Refuses while fenced or past the client's admission limit; answers the client key the admission records. */
export async function beginAdmission(
  { config, rateLimit, fence }: Pick<AppDeps, 'config' | 'rateLimit' | 'fence'>,
  c: Context,
): Promise<string> {
  // Admission writes an identity: a fenced service refuses it like every write.
  await fence.refuseWhileFenced();
  const clientKey = clientAddress(c, config.TRUSTED_PROXY_HOPS);
  await rateLimit(c, 'admission', clientKey, admissionRule(config));
  return clientKey;
}
