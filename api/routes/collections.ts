/** The paginated canonical collections `/api/problems`, `/api/solutions` and `/api/discussions`. */
import type { Context } from 'hono';
import { CollectionParamsSchema, DEFAULT_RECORD_LIMIT } from '../../core/schemas/read-params.ts';
import { recordLinks, type RecordRef } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { listDiscussions } from '../../db/queries/discussions.ts';
import { listProblems } from '../../db/queries/problems.ts';
import { listSolutions } from '../../db/queries/solutions.ts';
import { offsetOf, queryString, toPage } from '../../read-model/paging.ts';
import type { AppDeps } from '../app-deps.ts';
import { linkPages } from '../page-links.ts';
import { CACHE, sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

interface Collection<R extends { id: string; updated_at: Date }> {
  type: RecordRef['type'];
  path: string;
  list(db: Queryable, offset: number, limit: number): Promise<R[]>;
  /** The compact facts of one item, beside type, id, updated_at and links. */
  facts(row: R): Record<string, unknown>;
}

function createCollectionHandler<R extends { id: string; updated_at: Date }>(pool: Queryable, spec: Collection<R>) {
  return async function listCollection(c: Context): Promise<Response> {
    const { page, limit } = parseOrThrow(CollectionParamsSchema, c.req.query(), 'query');
    const rows = await spec.list(pool, offsetOf(page, limit), limit);
    const answer = {
      content_trust: 'untrusted',
      ...toPage(rows, page, limit, (row) => ({
        type: spec.type, id: row.id, ...spec.facts(row), updated_at: row.updated_at.toISOString(),
        links: recordLinks({ type: spec.type, id: row.id }),
      }), (next) => `${spec.path}${queryString({ page: next, limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`),
    };
    linkPages(c, answer);
    return sendJson(c, answer, CACHE.collection);
  };
}

export function createCollectionHandlers({ pool }: AppDeps) {
  return {
    problems: createCollectionHandler(pool, {
      type: 'problem', path: '/api/problems', list: listProblems,
      facts: (r) => ({ title: r.title, product: r.product, status: r.status, current_revision: r.current_revision }),
    }),
    solutions: createCollectionHandler(pool, {
      type: 'solution', path: '/api/solutions', list: listSolutions,
      facts: (r) => ({ problem_id: r.problem_id, status: r.status, current_revision: r.current_revision }),
    }),
    discussions: createCollectionHandler(pool, {
      type: 'discussion', path: '/api/discussions', list: listDiscussions,
      facts: (r) => ({ title: r.title, product: r.product, status: r.status, reply_count: r.reply_count }),
    }),
  };
}
