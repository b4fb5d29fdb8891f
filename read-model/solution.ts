/** The one set of facts behind a solution's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT } from '../core/schemas/read-params.ts';
import { recordLinks } from '../core/types.ts';
import type { OutcomeItem, SolutionView } from '../core/schemas/views.ts';
import type { Queryable } from '../db/pool.ts';
import { liveViewSource, type ViewSource } from './view-source.ts';
import { queryString } from '../core/record-page-url.ts';
import { offsetOf, toPage } from './paging.ts';
import { authorView, CONTENT_TRUST, iso } from './common.ts';
import { buildSolutionTrust } from './trust.ts';

/** `now` is the clock trust decays by (tests inject it). */
export type { SolutionView };

export async function buildSolutionView(
  db: Queryable,
  id: string,
  params: RecordParams,
  now = new Date(),
): Promise<SolutionView | null> {
  return solutionViewFrom(liveViewSource(db), id, params, now);
}

export async function solutionViewFrom(
  src: ViewSource,
  id: string,
  params: RecordParams,
  now: Date,
): Promise<SolutionView | null> {
  const head = await src.solution(id);
  if (!head) return null;
  const revision = params.revision ?? head.current_revision;
  const content = await src.solutionRevision(id, revision);
  if (!content) return null;
  const problemHead = (await src.problem(head.problem_id))!;
  const problem = (await src.problemRevision(head.problem_id, problemHead.current_revision))!;
  const rows = await src.outcomes(id, offsetOf(params.page, params.limit), params.limit);
  const api = `/api/v1/solutions/${id}`;
  const { signals, trust, outcomes_by_revision, feedback } = await buildSolutionTrust(src, id, revision, now);
  const outcomes = toPage(
    rows,
    params.page,
    params.limit,
    (row): OutcomeItem => ({
      id: row.id,
      signal: row.signal,
      solution_revision: row.solution_revision,
      note: row.note,
      environment: row.environment,
      reporter: { id: row.identity_id, handle: row.identity_handle },
      reported_at: iso(row.created_at),
    }),
    (page) =>
      `${api}${queryString({ revision: params.revision, page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
  );
  return {
    type: 'solution',
    id,
    revision,
    current_revision: head.current_revision,
    status: head.status,
    content_trust: CONTENT_TRUST,
    problem: {
      id: head.problem_id,
      title: problem.title,
      product: problem.product,
      links: recordLinks({ type: 'problem', id: head.problem_id }),
    },
    body: content.body,
    applicability: content.applicability,
    limitations: content.limitations,
    author: await authorView(src, head.author_id),
    created_at: iso(head.created_at),
    revised_at: iso(content.created_at),
    signals,
    trust,
    outcomes,
    outcomes_by_revision,
    feedback,
    links: { ...recordLinks({ type: 'solution', id }), api },
  };
}
