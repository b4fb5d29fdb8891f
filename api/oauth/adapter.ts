/**
 * oidc-provider's storage in PostgreSQL. Every id is stored as its SHA-256
 * (for access tokens, refresh tokens, codes, registration access tokens and
 * interactions, the id is the secret itself), so a copy of the database
 * holds no usable token. Grant ids are kept plain: they only name a consent,
 * and RFC 7009 revocation and refresh-token reuse detection find a grant's
 * tokens by them.
 */
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { sha256Hex } from '../../core/hash.ts';
import type { Queryable } from '../../db/pool.ts';
import {
  consumeOAuthRecord,
  deleteOAuthRecord,
  keepOAuthRecord,
  deleteOAuthRecordsOfGrant,
  findOAuthRecord,
  findOAuthRecordByUid,
  upsertOAuthRecord,
  type OAuthRecord,
} from '../../db/queries/oauth.ts';

const hashOf = (id: string) => sha256Hex(id);

/**
 * Models whose payload keeps its `jti`: the library's own browser session,
 * which it also looks up by uid (and then needs the id back). Its id is that
 * session's cookie, which signs no request to the resource by itself: every
 * consent also needs the account's session (api/account/session.ts).
 */
const KEEPS_ID = new Set(['Session']);

/** The payload as stored: for tokens and codes the `jti` is the secret itself, so it is left out. */
function storedPayload(model: string, payload: AdapterPayload): AdapterPayload {
  if (KEEPS_ID.has(model)) return payload;
  const { jti: _secret, ...rest } = payload;
  return rest;
}

/** oidc-provider marks a consumed record by a `consumed` epoch in its payload; the `jti` is the id it was found by. */
function payloadOf(record: OAuthRecord | null, id?: string): AdapterPayload | undefined {
  if (!record) return undefined;
  const payload = { ...(record.payload as AdapterPayload), ...(id !== undefined ? { jti: id } : {}) };
  return record.consumed_at ? { ...payload, consumed: Math.floor(record.consumed_at.getTime() / 1000) } : payload;
}

/**
 * `unusedClientSeconds`: a dynamically registered client is stored with this
 * lifetime; the first connection an account makes with it clears it
 * (`keepClient`), so only clients nobody connected expire.
 */
export function createPostgresAdapter(db: Queryable, options: { unusedClientSeconds: number }) {
  return class PostgresAdapter implements Adapter {
    readonly model: string;
    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (this.model === 'Client' && !expiresIn) expiresIn = options.unusedClientSeconds;
      await upsertOAuthRecord(db, {
        model: this.model,
        idHash: hashOf(id),
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uidHash: typeof payload.uid === 'string' ? hashOf(payload.uid) : null,
        payload: storedPayload(this.model, payload),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return payloadOf(await findOAuthRecord(db, this.model, hashOf(id)), KEEPS_ID.has(this.model) ? undefined : id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return payloadOf(await findOAuthRecordByUid(db, this.model, hashOf(uid)));
    }

    /** Device flow only, which is not enabled. */
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    /**
     * The library checks that a code or refresh token is unspent, then spends it: two requests presenting
     * one token can both pass the check. The one that finds it spent here is a reuse, as the library's own
     * check would have found it: the grant ends, and the request is refused.
     */
    async consume(id: string): Promise<void> {
      const { consumed, grantId } = await consumeOAuthRecord(db, this.model, hashOf(id));
      if (consumed) return;
      // The grant itself too, as the library's own revocation does: a token the winner saves after this
      // then names a grant that is gone, and the token endpoint refuses it.
      if (grantId) await deleteGrant(db, grantId);
      throw new errors.InvalidGrant(
        `${this.model === 'AuthorizationCode' ? 'authorization code' : 'refresh token'} already used`,
      );
    }

    async destroy(id: string): Promise<void> {
      await deleteOAuthRecord(db, this.model, hashOf(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteOAuthRecordsOfGrant(db, grantId);
    }
  };
}

/** A client an account connected with is kept: it no longer expires unused. */
export async function keepClient(db: Queryable, clientId: string): Promise<void> {
  await keepOAuthRecord(db, 'Client', hashOf(clientId));
}

/** Ends a consent for good: the Grant itself and every token and code issued under it. */
export async function deleteGrant(db: Queryable, grantId: string): Promise<void> {
  await deleteOAuthRecord(db, 'Grant', hashOf(grantId));
  await deleteOAuthRecordsOfGrant(db, grantId);
}
