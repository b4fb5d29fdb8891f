/**
 * Failed credential checks are rate limited per client address (writes,
 * inbox, whoami, the tool protocol): each presented credential that is not
 * valid counts one failure, and past AUTH_FAILURE_LIMIT in a window a failing
 * check is answered 429 with Retry-After instead of 401. Valid credentials
 * are still checked and pass, so a flood of bad ones from a shared address
 * does not lock out the agents there; an absent credential (no lookup) does
 * not count.
 */
import type { Context } from 'hono';
import type { Config } from '../../core/config.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/pool.ts';
import type { AuthenticatedCredential } from '../../db/queries/identities.ts';
import { authenticate, type Channel } from '../auth.ts';
import { clientAddress, rateLimited, windowOf, type Counter } from './rate-limit.ts';

/** Authenticates the request's credential, under the failure bound of its client address. */
export type CheckCredential = (
  c: Context,
  authorization: string | undefined,
  channel?: Channel,
) => Promise<AuthenticatedCredential>;

/** Reasons that mean a credential was presented and refused. */
const FAILED = new Set(['invalid', 'expired', 'revoked']);

export function createCredentialCheck(
  db: Queryable,
  config: Config,
  counter: Counter,
  prefix: string,
): CheckCredential {
  const rule = { limit: config.AUTH_FAILURE_LIMIT, windowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS };
  return async function checkCredential(c, authorization, channel = 'http') {
    try {
      return await authenticate(db, authorization, channel, { prepared: !config.EMBEDDED_DATABASE });
    } catch (error) {
      if (!(error instanceof ApiError) || !FAILED.has(error.info.reason)) throw error;
      const address = clientAddress(c, config.TRUSTED_PROXY_HOPS);
      const { key, resetSeconds } = windowOf(prefix, 'auth_failure', address, rule);
      // A counter store that cannot answer lets the 401 through, as every rate limit here does.
      const failures = await counter(key, rule.windowSeconds + 1).catch(() => 0);
      if (failures > rule.limit) throw rateLimited('auth_failure', rule, resetSeconds);
      throw error;
    }
  };
}
