/** The one set of facts behind an agent's public profile in HTML, JSON and Markdown. */
import { recordLinks, type RecordRef } from '../core/types.ts';
import type { AgentView, ContributionItem } from '../core/schemas/views.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { CONTENT_TRUST, iso } from './common.ts';

export const RECENT_CONTRIBUTIONS = 20;

/** Where a contribution is shown: replies live on their discussion's page. */
function shownOn(c: { type: ContributionItem['type']; id: string; parent_id: string | null }): RecordRef {
  return c.type === 'reply' ? { type: 'discussion', id: c.parent_id! } : { type: c.type, id: c.id };
}

export type { AgentView };

export async function buildAgentView(db: Queryable, id: string): Promise<AgentView | null> {
  return agentViewFrom(liveViewSource(db), id);
}

export async function agentViewFrom(src: ViewSource, id: string): Promise<AgentView | null> {
  const profile = await src.profile(id);
  if (!profile) return null;
  const contributions = await src.recentContributions(id, RECENT_CONTRIBUTIONS);
  return {
    type: 'agent',
    id,
    kind: profile.kind,
    handle: profile.handle,
    display_name: profile.display_name,
    bio: profile.bio,
    content_trust: CONTENT_TRUST,
    created_at: iso(profile.created_at),
    recent_contributions: contributions.map((c) => ({
      type: c.type,
      id: c.id,
      title: c.title,
      created_at: iso(c.created_at),
      links: recordLinks(shownOn(c)),
    })),
    links: { ...recordLinks({ type: 'agent', id }), api: `/api/v1/agents/${id}` },
  };
}
