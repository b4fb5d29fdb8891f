/** SQL for identities and their credentials. */
import { queryPrepared, type Queryable } from '../pool.ts';
import { SOLUTION_TEXT_START } from './collections.ts';

export interface Identity {
  id: string;
  kind: 'guest' | 'pseudonymous';
  handle: string | null;
  display_name: string | null;
}

export interface CredentialRow {
  id: string;
  identity_id: string;
  scopes: string[];
  epoch: number;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface AuthenticatedCredential extends CredentialRow {
  identity: Identity;
}

export async function insertIdentity(db: Queryable, identity: Identity): Promise<void> {
  await db.query(
    `INSERT INTO identities (id, kind, handle, display_name) VALUES ($1::text, $2::text, $3::text, $4::text)`,
    [identity.id, identity.kind, identity.handle, identity.display_name],
  );
}

export async function insertCredential(
  db: Queryable,
  c: { id: string; identityId: string; hash: string; scopes: string[]; epoch: number; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO credentials (id, identity_id, hash, scopes, epoch, expires_at)
     VALUES ($1::text, $2::text, $3::text, $4::text[], $5::int, $6::timestamptz)`,
    [c.id, c.identityId, c.hash, c.scopes, c.epoch, c.expiresAt],
  );
}

export async function credentialHashExists(db: Queryable, hash: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM credentials WHERE hash = $1::text', [hash]);
  return (r.rowCount ?? 0) > 0;
}

export async function handleExists(db: Queryable, handle: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM identities WHERE handle = $1::text', [handle]);
  return (r.rowCount ?? 0) > 0;
}

/**
 * The credential with this hash and its identity, whatever its state.
 * `prepared`: run named, planned once per connection (every authenticated
 * request asks this; not on the embedded database, see `queryPrepared`).
 */
export async function findCredentialByHash(
  db: Queryable,
  hash: string,
  options: { prepared?: boolean } = {},
): Promise<AuthenticatedCredential | null> {
  const r = await queryPrepared(
    db,
    options.prepared ? 'ak_credential_by_hash' : undefined,
    `SELECT c.id, c.identity_id, c.scopes, c.epoch, c.expires_at, c.revoked_at,
            i.kind, i.handle, i.display_name
       FROM credentials c JOIN identities i ON i.id = c.identity_id
      WHERE c.hash = $1::text`,
    [hash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    identity_id: row.identity_id,
    scopes: row.scopes,
    epoch: row.epoch,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    identity: { id: row.identity_id, kind: row.kind, handle: row.handle, display_name: row.display_name },
  };
}

export async function findIdentity(db: Queryable, id: string): Promise<Identity | null> {
  const r = await db.query('SELECT id, kind, handle, display_name FROM identities WHERE id = $1::text', [id]);
  return r.rows[0] ?? null;
}

export async function updateProfile(
  db: Queryable,
  id: string,
  p: { display_name?: string; bio?: string },
  at: Date,
): Promise<void> {
  // An omitted field keeps its value; an empty string clears it.
  await db.query(
    `UPDATE identities SET
       display_name = CASE WHEN $2::boolean THEN nullif($3::text, '') ELSE display_name END,
       bio          = CASE WHEN $4::boolean THEN nullif($5::text, '') ELSE bio END,
       updated_at   = $6::timestamptz
     WHERE id = $1::text`,
    [id, p.display_name !== undefined, p.display_name ?? null, p.bio !== undefined, p.bio ?? null, at],
  );
}

export interface Profile extends Identity {
  bio: string | null;
  created_at: Date;
}

export async function findProfile(db: Queryable, id: string): Promise<Profile | null> {
  const r = await db.query(
    'SELECT id, kind, handle, display_name, bio, created_at FROM identities WHERE id = $1::text',
    [id],
  );
  return r.rows[0] ?? null;
}

/** Locks the credential row so two rotations of one credential serialise. */
export async function lockCredential(db: Queryable, id: string): Promise<CredentialRow | null> {
  const r = await db.query(
    `SELECT id, identity_id, scopes, epoch, expires_at, revoked_at FROM credentials WHERE id = $1::text FOR UPDATE`,
    [id],
  );
  return r.rows[0] ?? null;
}

/** A credential or OAuth connection as the commit checks it. */
export interface CallerRow {
  identity_id: string;
  revoked_at: Date | null;
}

/**
 * The direct credentials and OAuth connections that queued writes, by id,
 * each row share-locked until the caller's transaction ends, in one
 * statement. A revocation (an UPDATE of the row) that committed first is
 * seen; one still running is waited for and then seen; one that comes
 * later waits for this transaction, so it never ends before a write it
 * did not stop. Ids that match no row are absent. A credential the same
 * transaction ends is locked for update here instead: two transactions
 * that each share-locked it and then wanted it for update would deadlock.
 */
export async function lockCallers(
  db: Queryable,
  credentialIds: readonly string[],
  grantIds: readonly string[],
  /** Credentials a write of the same transaction ends (rotates, revokes): locked for update at once. */
  endedIds: readonly string[] = [],
): Promise<{
  credentials: Map<string, CallerRow & { expires_at: Date }>;
  connections: Map<string, CallerRow>;
}> {
  const r = await db.query<CallerRow & { id: string; expires_at: Date | null }>(
    `WITH e AS (SELECT id, identity_id, revoked_at, expires_at FROM credentials
                 WHERE id = ANY($3::text[]) ORDER BY id FOR UPDATE),
          c AS (SELECT id, identity_id, revoked_at, expires_at FROM credentials
                 WHERE id = ANY($1::text[]) AND id <> ALL($3::text[]) ORDER BY id FOR SHARE),
          o AS (SELECT grant_id, identity_id, revoked_at FROM oauth_connections
                 WHERE grant_id = ANY($2::text[]) ORDER BY grant_id FOR SHARE)
     SELECT id, identity_id, revoked_at, expires_at FROM e
     UNION ALL
     SELECT id, identity_id, revoked_at, expires_at FROM c
     UNION ALL
     SELECT grant_id, identity_id, revoked_at, NULL FROM o`,
    [credentialIds, grantIds, endedIds],
  );
  const credentials = new Map<string, CallerRow & { expires_at: Date }>();
  const connections = new Map<string, CallerRow>();
  for (const { id, expires_at, ...row } of r.rows) {
    // Only a credential has an expiry (NOT NULL); a connection's tokens expire on their own.
    if (expires_at) credentials.set(id, { ...row, expires_at });
    else connections.set(id, row);
  }
  return { credentials, connections };
}

export async function revokeCredential(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE credentials SET revoked_at = coalesce(revoked_at, $2::timestamptz) WHERE id = $1::text', [
    id,
    at,
  ]);
}

export interface Contribution {
  type: 'problem' | 'solution' | 'discussion' | 'reply';
  id: string;
  title: string | null;
  /** A solution's problem, a reply's discussion. */
  parent_id: string | null;
  /** A reply's discussion's title. */
  parent_title: string | null;
  /** A solution's first SOLUTION_TEXT_START characters of current text (its first line of words titles it). */
  body_start: string | null;
  created_at: Date;
}

/**
 * An identity's most recent public contributions of every kind, newest first.
 * Problems and solutions are limited before their current revisions are
 * joined: joined first, the planner (which cannot tell that each has exactly
 * one current revision) read every problem of the author, so a prolific
 * author's page cost more with each problem. A current revision is written in
 * the same transaction as its record or its new number, so the rows are the
 * same. Replies are limited before their discussions' titles are joined, for
 * the same reason.
 */
export async function listRecentContributions(
  db: Queryable,
  identityId: string,
  limit: number,
): Promise<Contribution[]> {
  const r = await db.query(
    `(SELECT 'problem' AS type, p.id, pr.title, NULL AS parent_id, NULL AS parent_title, NULL AS body_start, p.created_at
        FROM (SELECT id, current_revision, created_at FROM problems
               WHERE author_id = $1::text ORDER BY id DESC LIMIT $2::int) p
        JOIN problem_revisions pr ON pr.problem_id = p.id AND pr.revision = p.current_revision)
     UNION ALL
     (SELECT 'solution', s.id, NULL, s.problem_id, NULL, left(sr.body, ${SOLUTION_TEXT_START}), s.created_at
        FROM (SELECT id, problem_id, current_revision, created_at FROM solutions
               WHERE author_id = $1::text ORDER BY id DESC LIMIT $2::int) s
        JOIN solution_revisions sr ON sr.solution_id = s.id AND sr.revision = s.current_revision)
     UNION ALL
     (SELECT 'discussion', d.id, d.title, NULL, NULL, NULL, d.created_at FROM discussions d
       WHERE d.author_id = $1::text ORDER BY d.id DESC LIMIT $2::int)
     UNION ALL
     (SELECT 'reply', r.id, NULL, r.discussion_id, d.title, NULL, r.created_at
        FROM (SELECT id, discussion_id, created_at FROM replies
               WHERE author_id = $1::text ORDER BY id DESC LIMIT $2::int) r
        JOIN discussions d ON d.id = r.discussion_id)
     ORDER BY created_at DESC, id DESC LIMIT $2::int`,
    [identityId, limit],
  );
  return r.rows;
}

export async function listAllIdentityIds(db: Queryable): Promise<string[]> {
  const r = await db.query<{ id: string }>('SELECT id FROM identities ORDER BY id');
  return r.rows.map((row) => row.id);
}
