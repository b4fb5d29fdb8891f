/** The one set of facts behind a problem's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import type { ProblemView, SolutionListItem } from '../core/schemas/views.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { queryString } from '../core/record-page-url.ts';
import { offsetOf, toPage } from './paging.ts';
import { authorView, CONTENT_TRUST, iso } from './common.ts';
import { buildProblemTrust, buildSolutionListTrust } from './trust.ts';

/** `now` is the clock its solutions' trust decays by (tests inject it). */
export type { ProblemView };

export async function buildProblemView(
  db: Queryable,
  id: string,
  params: RecordParams,
  now = new Date(),
): Promise<ProblemView | null> {
  return problemViewFrom(liveViewSource(db), id, params, now);
}

export async function problemViewFrom(
  src: ViewSource,
  id: string,
  params: RecordParams,
  now: Date,
): Promise<ProblemView | null> {
  const head = await src.problem(id);
  if (!head) return null;
  const revision = params.revision ?? head.current_revision;
  const content = await src.problemRevision(id, revision);
  if (!content) return null;
  const rows = await src.solutionsOfProblem(id, offsetOf(params.page, params.limit), params.limit);
  const listed = await buildSolutionListTrust(
    src,
    rows.map((r) => r.id),
    now,
  );
  const { trust, feedback } = await buildProblemTrust(src, id, revision);
  const links = recordLinks({ type: 'problem', id });
  const api = `/api/v1/problems/${id}`;
  const solutions = toPage(
    rows,
    params.page,
    params.limit,
    (row): SolutionListItem => ({
      id: row.id,
      current_revision: row.current_revision,
      status: row.status,
      body: row.body,
      applicability: row.applicability,
      limitations: row.limitations,
      ...listed.get(row.id)!,
      updated_at: iso(row.updated_at),
      links: recordLinks({ type: 'solution', id: row.id }),
    }),
    (page) =>
      `${api}${queryString({ revision: params.revision, page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
  );
  return {
    type: 'problem',
    id,
    revision,
    current_revision: head.current_revision,
    status: head.status,
    content_trust: CONTENT_TRUST,
    title: content.title,
    body: content.body,
    product: content.product,
    error_literal: content.error_literal,
    environment: content.environment,
    tags: content.tags,
    author: await authorView(src, head.author_id),
    created_at: iso(head.created_at),
    revised_at: iso(content.created_at),
    trust,
    feedback,
    solutions,
    links: { ...links, api },
  };
}
