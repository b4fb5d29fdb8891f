/** The one set of facts behind a problem's HTML, JSON and Markdown projections. */
import type { RecordParams } from '../../../core/schemas/read-params.ts';
import { DEFAULT_RECORD_LIMIT } from '../../../core/schemas/read-params.ts';
import { recordLinks, type ResourceLinks } from '../../../core/types.ts';
import type { Queryable } from '../../../db/pool.ts';
import { countSignals, type SignalCounts } from '../../../db/queries/outcomes.ts';
import { findProblem, findProblemRevision } from '../../../db/queries/problems.ts';
import { listSolutionsOfProblem } from '../../../db/queries/solutions.ts';
import { offsetOf, queryString, toPage, type Page } from '../paging.ts';
import { authorView, CONTENT_TRUST, iso, type AuthorView } from './common.ts';

export interface SolutionListItem {
  id: string;
  current_revision: number;
  status: string;
  body: string;
  applicability: string | null;
  limitations: string | null;
  signals: SignalCounts;
  updated_at: string;
  links: ResourceLinks;
}

export interface ProblemView {
  type: 'problem';
  id: string;
  revision: number;
  current_revision: number;
  status: string;
  content_trust: typeof CONTENT_TRUST;
  title: string;
  body: string;
  product: string;
  error_literal: string | null;
  environment: Record<string, string>;
  tags: string[];
  author: AuthorView;
  created_at: string;
  revised_at: string;
  solutions: Page<SolutionListItem>;
  links: ResourceLinks & { api: string };
}

export async function buildProblemView(db: Queryable, id: string, params: RecordParams): Promise<ProblemView | null> {
  const head = await findProblem(db, id);
  if (!head) return null;
  const revision = params.revision ?? head.current_revision;
  const content = await findProblemRevision(db, id, revision);
  if (!content) return null;
  const rows = await listSolutionsOfProblem(db, id, offsetOf(params.page, params.limit), params.limit);
  const signals = await countSignals(db, rows.map((r) => r.id));
  const links = recordLinks({ type: 'problem', id });
  const api = `/api/v1/problems/${id}`;
  const solutions = toPage(
    rows, params.page, params.limit,
    (row): SolutionListItem => ({
      id: row.id,
      current_revision: row.current_revision,
      status: row.status,
      body: row.body,
      applicability: row.applicability,
      limitations: row.limitations,
      signals: signals.get(row.id)!,
      updated_at: iso(row.updated_at),
      links: recordLinks({ type: 'solution', id: row.id }),
    }),
    (page) => `${api}${queryString({ revision: params.revision, page, limit: params.limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`,
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
    author: await authorView(db, head.author_id),
    created_at: iso(head.created_at),
    revised_at: iso(content.created_at),
    solutions,
    links: { ...links, api },
  };
}
