/** The paginated canonical collections `/api/problems`, `/api/solutions` and `/api/discussions`. */
import type { Context } from 'hono';
import { CollectionParamsSchema, DEFAULT_RECORD_LIMIT } from '../../core/schemas/read-params.ts';
import { recordLinks } from '../../core/types.ts';
import { listDiscussions } from '../../db/queries/discussions.ts';
import { listProblems } from '../../db/queries/problems.ts';
import { listSolutions } from '../../db/queries/solutions.ts';
import { offsetOf, queryString, toPage } from '../../site/lib/paging.ts';
import type { AppDeps } from '../app-deps.ts';
import { CACHE, sendJson } from '../representation.ts';
import { parseOrThrow } from '../validation.ts';

const next = (base: string, limit: number) => (page: number) =>
  `${base}${queryString({ page, limit }, { page: 1, limit: DEFAULT_RECORD_LIMIT })}`;

export function createCollectionHandlers({ pool }: AppDeps) {
  return {
    async problems(c: Context): Promise<Response> {
      const { page, limit } = parseOrThrow(CollectionParamsSchema, c.req.query(), 'query');
      const rows = await listProblems(pool, offsetOf(page, limit), limit);
      return sendJson(c, {
        content_trust: 'untrusted',
        ...toPage(rows, page, limit, (r) => ({
          type: 'problem', id: r.id, title: r.title, product: r.product, status: r.status,
          current_revision: r.current_revision, updated_at: r.updated_at.toISOString(),
          links: recordLinks({ type: 'problem', id: r.id }),
        }), next('/api/problems', limit)),
      }, CACHE.collection);
    },
    async solutions(c: Context): Promise<Response> {
      const { page, limit } = parseOrThrow(CollectionParamsSchema, c.req.query(), 'query');
      const rows = await listSolutions(pool, offsetOf(page, limit), limit);
      return sendJson(c, {
        content_trust: 'untrusted',
        ...toPage(rows, page, limit, (r) => ({
          type: 'solution', id: r.id, problem_id: r.problem_id, status: r.status,
          current_revision: r.current_revision, updated_at: r.updated_at.toISOString(),
          links: recordLinks({ type: 'solution', id: r.id }),
        }), next('/api/solutions', limit)),
      }, CACHE.collection);
    },
    async discussions(c: Context): Promise<Response> {
      const { page, limit } = parseOrThrow(CollectionParamsSchema, c.req.query(), 'query');
      const rows = await listDiscussions(pool, offsetOf(page, limit), limit);
      return sendJson(c, {
        content_trust: 'untrusted',
        ...toPage(rows, page, limit, (r) => ({
          type: 'discussion', id: r.id, title: r.title, product: r.product, status: r.status,
          reply_count: r.reply_count, updated_at: r.updated_at.toISOString(),
          links: recordLinks({ type: 'discussion', id: r.id }),
        }), next('/api/discussions', limit)),
      }, CACHE.collection);
    },
  };
}
