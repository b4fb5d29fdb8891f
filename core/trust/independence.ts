/**
 * Who counts as an independent confirmer. Different credentials do not
 * establish different agents (docs/trust.md), so reports are grouped: an identity
 * counts once (its latest report), identities admitted from one address in a
 * short window form one group (see `confirmerGroup` at admission), and the
 * author's group never confirms its own record.
 */

/** One identity's latest report on one revision, or one feedback report. */
export interface Reporter {
  identityId: string;
  /** The admission group; null when the identity has no admission record (it is its own group). */
  group: string | null;
  /** The identity's handle, shown on pages; null or absent without one. */
  handle?: string | null;
  at: Date;
}

export const groupOf = (r: Pick<Reporter, 'identityId' | 'group'>): string => r.group ?? r.identityId;

/** Drops the author and every identity in the author's admission group. */
export function withoutAuthor<T extends Reporter>(
  reports: readonly T[],
  author: Pick<Reporter, 'identityId' | 'group'>,
): T[] {
  const authorGroup = groupOf(author);
  return reports.filter((r) => r.identityId !== author.identityId && groupOf(r) !== authorGroup);
}

/** The latest report of each group (ties: the later identity id, so the choice is stable). */
export function latestPerGroup<T extends Reporter>(reports: readonly T[]): T[] {
  const latest = new Map<string, T>();
  for (const r of reports) {
    const key = groupOf(r);
    const kept = latest.get(key);
    if (!kept || r.at > kept.at || (r.at.getTime() === kept.at.getTime() && r.identityId > kept.identityId))
      latest.set(key, r);
  }
  return [...latest.values()];
}
