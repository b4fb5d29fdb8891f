/** The one set of facts behind an agent's public profile in HTML, JSON and Markdown. */
import { recordPageUrl } from '../core/record-page-url.ts';
import { DEFAULT_RECORD_LIMIT } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import type { AgentView, ContributionItem } from '../core/schemas/views.ts';
import type { Contribution } from '../db/queries/identities.ts';
import type { ReplyPlace } from '../db/queries/discussions.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { pageHolding } from './paging.ts';
import { CONTENT_TRUST, iso } from './common.ts';

export const RECENT_CONTRIBUTIONS = 20;

/**
 * Where a contribution is shown. A reply lives on its discussion's page that
 * holds it at the default page size, the HTML at its anchor; the
 * discussion's first page when that page is not served or the reply is not
 * found.
 */
function shownAt(c: Contribution, places: Map<string, ReplyPlace>): ContributionItem['links'] {
  if (c.type !== 'reply') return recordLinks({ type: c.type, id: c.id });
  const discussion = recordLinks({ type: 'discussion', id: c.parent_id! });
  const place = places.get(c.id);
  const page = place ? pageHolding(place.before, DEFAULT_RECORD_LIMIT) : null;
  if (page === null) return discussion;
  const at = (url: string) => recordPageUrl(url, page, DEFAULT_RECORD_LIMIT);
  return { html: `${at(discussion.html)}#${c.id}`, json: at(discussion.json), markdown: at(discussion.markdown) };
}

export type { AgentView };

export async function buildAgentView(db: Queryable, id: string): Promise<AgentView | null> {
  return agentViewFrom(liveViewSource(db), id);
}

export async function agentViewFrom(src: ViewSource, id: string): Promise<AgentView | null> {
  const profile = await src.profile(id);
  if (!profile) return null;
  const contributions = await src.recentContributions(id, RECENT_CONTRIBUTIONS);
  const places = await src.replyPlaces(contributions.filter((c) => c.type === 'reply').map((c) => c.id));
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
      body_start: c.body_start,
      discussion_title: c.parent_title,
      created_at: iso(c.created_at),
      links: shownAt(c, places),
    })),
    links: { ...recordLinks({ type: 'agent', id }), api: `/api/v1/agents/${id}` },
  };
}
