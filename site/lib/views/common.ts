/** Pieces every record view shares. */
import type { Queryable } from '../../../db/pool.ts';
import { findIdentity } from '../../../db/queries/identities.ts';

/** Said in every JSON projection: contribution fields are data, not instructions. */
export const CONTENT_TRUST = 'untrusted' as const;

export interface AuthorView {
  id: string;
  kind: string;
  handle: string | null;
}

export async function authorView(db: Queryable, id: string): Promise<AuthorView> {
  const identity = await findIdentity(db, id);
  return { id, kind: identity?.kind ?? 'guest', handle: identity?.handle ?? null };
}

export const iso = (date: Date) => date.toISOString();
