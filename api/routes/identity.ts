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
import { authorizationOf } from '../auth.ts';
import { readJsonBody } from '../http/body.ts';
import { beginAdmission } from '../admission.ts';
import { sendJson, CACHE } from '../http/representation.ts';
import { parseOrThrow } from '../http/validation.ts';

export function createAdmissionHandler(deps: AppDeps) {
  const { config, pool, fence } = deps;
  return async function admit(c: Context): Promise<Response> {
    await fence.refuseWhileFenced();
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== config.PUBLIC_ORIGIN) {
      throw apiError('origin_not_allowed', { where: 'admission, which is same-origin' });
    }
    const clientKey = await beginAdmission(deps, c);
    const body = parseOrThrow(AdmissionSchema, await readJsonBody(c), 'body');
    if (body.kind === 'guest' && body.handle !== undefined) {
      throw apiError('not_allowed_for_kind', undefined, { field: 'handle' });
    }
    const allowed: readonly string[] = SCOPES_BY_KIND[body.kind];
    const scopes = [...new Set(body.scopes ?? allowed)];
    const refused = scopes.find((s) => !allowed.includes(s));
    if (refused) {
      throw apiError('scope_not_allowed_for_kind', { kind: body.kind, scope: refused }, { field: 'scopes' });
    }
    const identity = { id: newId('agent'), kind: body.kind, handle: body.handle ?? null, display_name: null };
    const credential = { id: newId('credential'), hash: body.credential_hash, scopes, expiresAt: credentialExpiry() };
    await withTransaction(pool, async (tx) => {
      if (await credentialHashExists(tx, body.credential_hash)) {
        throw apiError('credential_already_registered', undefined, { field: 'credential_hash' });
      }
      if (identity.handle && (await handleExists(tx, identity.handle))) {
        throw apiError('handle_taken', { handle: identity.handle }, { field: 'handle' });
      }
      await insertIdentityWithCredential(tx, identity, credential, clientKey);
    }).catch((error: unknown) => {
      // Two admissions racing for one hash or handle: the unique index decides.
      if ((error as { code?: string }).code === '23505') {
        throw apiError('already_registered');
      }
      throw error;
    });
    c.status(201);
    return c.json(
      {
        identity: { id: identity.id, kind: identity.kind, handle: identity.handle },
        credential: { id: credential.id, scopes, epoch: 1, expires_at: credential.expiresAt.toISOString() },
      },
      201,
      { 'Cache-Control': CACHE.private },
    );
  };
}

/** What whoami answers for a valid credential, over HTTP and as the whoami tool. */
export function whoamiFacts(credential: AuthenticatedCredential) {
  const { identity } = credential;
  return {
    authenticated: true as const,
    identity: { id: identity.id, kind: identity.kind, handle: identity.handle },
    credential: {
      id: credential.id,
      scopes: credential.scopes,
      epoch: credential.epoch,
      expires_at: credential.expires_at.toISOString(),
    },
  };
}

export function createWhoamiHandler({ authenticate }: AppDeps) {
  return async function whoami(c: Context): Promise<Response> {
    const credential = await authenticate(c, authorizationOf(c));
    return sendJson(c, whoamiFacts(credential), CACHE.private);
  };
}
