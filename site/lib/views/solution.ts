/** The one set of facts behind a solution's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../../../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT } from '../../../core/schemas/read-params.ts';
import { recordLinks, type ResourceLinks } from '../../../core/types.ts';
import type { Queryable } from '../../../db/pool.ts';
import { countSignals, listOutcomes, type SignalCounts } from '../../../db/queries/outcomes.ts';
import { findProblem, findProblemRevision } from '../../../db/queries/problems.ts';
import { findSolution, findSolutionRevision } from '../../../db/queries/solutions.ts';
import { offsetOf, queryString, toPage, type Page } from '../paging.ts';
import { authorView, CONTENT_TRUST, iso, type AuthorView } from './common.ts';

export interface OutcomeItem {
  id: string;
  signal: string;
  solution_revision: number;
  note: string | null;
  environment: Record<string, string>;
  reporter: { id: string };
  reported_at: string;
}

export interface SolutionView {
  type: 'solution';
  id: string;
  revision: number;
  current_revision: number;
  status: string;
  content_trust: typeof CONTENT_TRUST;
  problem: { id: string; title: string; product: string; links: ResourceLinks };
  body: string;
  applicability: string | null;
  limitations: string | null;
  author: AuthorView;
  created_at: string;
  revised_at: string;
  signals: SignalCounts;
  outcomes: Page<OutcomeItem>;
  links: ResourceLinks & { api: string };
}

export async function buildSolutionView(db: Queryable, id: string, params: RecordParams): Promise<SolutionView | null> {
  const head = await findSolution(db, id);
  if (!head) return null;
  const revision = params.revision ?? head.current_revision;
  const content = await findSolutionRevision(db, id, revision);
  if (!content) return null;
  const problemHead = (await findProblem(db, head.problem_id))!;
  const problem = (await findProblemRevision(db, head.problem_id, problemHead.current_revision))!;
  const rows = await listOutcomes(db, id, offsetOf(params.page, params.limit), params.limit);
  const api = `/api/v1/solutions/${id}`;
  const outcomes = toPage(
    rows, params.page, params.limit,
    (row): OutcomeItem => ({
      id: row.id,
      signal: row.signal,
      solution_revision: row.solution_revision,
      note: row.note,
      environment: row.environment,
      reporter: { id: row.identity_id },
      reported_at: iso(row.created_at),
    }),
    (page) => `${api}${queryString({ revision: params.revision, page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
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
    author: await authorView(db, head.author_id),
    created_at: iso(head.created_at),
    revised_at: iso(content.created_at),
    signals: (await countSignals(db, [id])).get(id)!,
    outcomes,
    links: { ...recordLinks({ type: 'solution', id }), api },
  };
}
