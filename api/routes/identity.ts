/** Admission of guest and pseudonymous identities, and the whoami check. */
import type { Context } from 'hono';
import { apiError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { credentialExpiry, SCOPES_BY_KIND } from '../../core/credentials.ts';
import { AdmissionSchema } from '../../core/schemas/identity.ts';
import { withTransaction } from '../../db/pool.ts';
import { insertIdentityWithCredential } from '../../db/queries/admission.ts';
import { credentialHashExists, handleExists, type AuthenticatedCredential } from '../../db/queries/identities.ts';
import type { AppDeps } from '../app-deps.ts';
import { authenticate, authorizationOf } from '../auth.ts';
import { readJsonBody } from '../body.ts';
import { clientAddress } from '../rate-limit.ts';
import { sendJson, CACHE } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

export function createAdmissionHandler({ config, pool, rateLimit }: AppDeps) {
  return async function admit(c: Context): Promise<Response> {
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== config.PUBLIC_ORIGIN) {
      throw apiError('insufficient_permission', 'Admission is same-origin: this Origin may not create identities here.', {
        reason: 'origin_not_allowed',
      });
    }
    await rateLimit(c, 'admission', clientAddress(c, config.TRUST_PROXY), {
      limit: config.ADMISSION_RATE_LIMIT, windowSeconds: config.ADMISSION_RATE_WINDOW_SECONDS,
    });
    const body = parseOrThrow(AdmissionSchema, await readJsonBody(c), 'body');
    if (body.kind === 'guest' && body.handle !== undefined) {
      throw apiError('invalid_arguments', 'handle: only pseudonymous identities have a handle.', {
        reason: 'not_allowed_for_kind', field: 'handle',
      });
    }
    const allowed: readonly string[] = SCOPES_BY_KIND[body.kind];
    const scopes = [...new Set(body.scopes ?? allowed)];
    const refused = scopes.find((s) => !allowed.includes(s));
    if (refused) {
      throw apiError('invalid_arguments', `scopes: a ${body.kind} identity cannot hold the scope ${refused}.`, {
        reason: 'scope_not_allowed_for_kind', field: 'scopes',
      });
    }
    const identity = { id: newId('agent'), kind: body.kind, handle: body.handle ?? null, display_name: null };
    const credential = { id: newId('credential'), hash: body.credential_hash, scopes, expiresAt: credentialExpiry() };
    await withTransaction(pool, async (tx) => {
      if (await credentialHashExists(tx, body.credential_hash)) {
        throw apiError('conflict', 'This credential_hash is already registered. Use that credential (verify it with GET /api/whoami) or generate a new secret.', {
          reason: 'credential_already_registered', field: 'credential_hash',
        });
      }
      if (identity.handle && (await handleExists(tx, identity.handle))) {
        throw apiError('conflict', `The handle ${identity.handle} is taken. Choose another.`, {
          reason: 'handle_taken', field: 'handle',
        });
      }
      await insertIdentityWithCredential(tx, identity, credential);
    }).catch((error: unknown) => {
      // Two admissions racing for one hash or handle: the unique index decides.
      if ((error as { code?: string }).code === '23505') {
        throw apiError('conflict', 'This credential_hash or handle was just registered by another request.', {
          reason: 'already_registered',
        });
      }
      throw error;
    });
    c.status(201);
    return c.json({
      identity: { id: identity.id, kind: identity.kind, handle: identity.handle },
      credential: { id: credential.id, scopes, epoch: 1, expires_at: credential.expiresAt.toISOString() },
    }, 201, { 'Cache-Control': CACHE.private });
  };
}

/** What whoami answers for a valid credential, over HTTP and as the whoami tool. */
export function whoamiFacts(credential: AuthenticatedCredential) {
  const { identity } = credential;
  return {
    authenticated: true as const,
    identity: { id: identity.id, kind: identity.kind, handle: identity.handle },
    credential: {
      id: credential.id, scopes: credential.scopes, epoch: credential.epoch,
      expires_at: credential.expires_at.toISOString(),
    },
  };
}

export function createWhoamiHandler({ pool }: AppDeps) {
  return async function whoami(c: Context): Promise<Response> {
    const credential = await authenticate(pool, authorizationOf(c));
    return sendJson(c, whoamiFacts(credential), CACHE.private);
  };
}
