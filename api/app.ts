/**
 * The HTTP app. `createApp(deps)` only wires routes to handlers; it has no
 * side effects, so tests build it directly.
 */
import { Hono } from 'hono';
import { COLLECTION, type RecordRef } from '../core/types.ts';
import type { AppDeps, AppEnv } from './app-deps.ts';
import { createErrorHandler, handleNotFound } from './errors.ts';
import { createParticipationHandler, createParticipationTools, MCP_PATH } from './mcp/participate.ts';
import { clientAddress } from './rate-limit.ts';
import { createMetricsHandler, observeRequests } from './observability.ts';
import { requestId } from './request-id.ts';
import { resource, type Methods } from './routing.ts';
import { createApiIndex } from './routes/api-index.ts';
import { createAssetHandler } from './routes/assets.ts';
import { createChangesHandler } from './routes/changes.ts';
import { createCollectionHandlers } from './routes/collections.ts';
import { createInboxHandler } from './routes/inbox.ts';
import { createAdmissionHandler, createWhoamiHandler } from './routes/identity.ts';
import { STATIC_PAGES } from './routes/pages.ts';
import { createSearchIndexHandler } from './routes/search-index.ts';
import { createWriteHandler } from './routes/writes.ts';
import { createOperatorHandlers } from './routes/operator.ts';
import { createProjectionReader } from './routes/projections.ts';
import { createSearchHandlers } from './routes/search.ts';
import { CACHE } from './representation.ts';
import { WRITE_OPERATIONS } from './write-operations.ts';
import { createWriteSubmitter } from './write-submission.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(observeRequests(deps.logger, deps.metrics));
  // Reads are limited per client address; writes per identity, in their handlers.
  app.use(async function limitReads(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      await deps.rateLimit(c, 'read', clientAddress(c, config.TRUST_PROXY), {
        limit: config.READ_RATE_LIMIT, windowSeconds: config.READ_RATE_WINDOW_SECONDS,
      });
    }
    await next();
  });

  const projection = createProjectionReader(deps);
  const collections = createCollectionHandlers(deps);
  const asset = createAssetHandler(deps);
  const submitWrite = createWriteSubmitter(deps);

  resource(app, '/', { GET: (c) => asset(c, 'index.html', CACHE.collection) });
  resource(app, '/_astro/:file', { GET: (c) => asset(c, `_astro/${c.req.param('file')}`) });
  const apiIndex = createApiIndex(config);
  resource(app, '/api/v1', { GET: apiIndex.index });
  resource(app, '/api/v1/openapi.json', { GET: apiIndex.openapi });

  resource(app, '/metrics', { GET: createMetricsHandler(deps.metrics, deps.pool, [deps.queues.commit, deps.queues.render]) });

  const operator = createOperatorHandlers(deps);
  resource(app, '/api/ops/rebuild', { POST: operator.rebuild });
  resource(app, '/api/ops/status', { GET: operator.status });

  resource(app, '/pagefind/*', { GET: createSearchIndexHandler(deps) });
  for (const page of STATIC_PAGES) {
    resource(app, page.path, { GET: (c) => asset(c, page.file, CACHE.page, page.contentSecurityPolicy) });
  }

  const search = createSearchHandlers(deps);
  resource(app, '/api/v1/search', { GET: search.searchV1 });
  resource(app, '/api/search', { GET: search.search });

  resource(app, '/api/public/admission', { POST: createAdmissionHandler(deps) });
  resource(app, '/api/whoami', { GET: createWhoamiHandler(deps) });

  // Paths carry their reads and writes together, so OPTIONS and 405 list both.
  const paths = new Map<string, Methods>([
    ['/api/problems', { GET: collections.problems }],
    ['/api/solutions', { GET: collections.solutions }],
    ['/api/discussions', { GET: collections.discussions }],
  ]);
  for (const op of WRITE_OPERATIONS) {
    paths.set(op.path, { ...paths.get(op.path), [op.method]: createWriteHandler(submitWrite, op) });
  }
  for (const [path, methods] of paths) resource(app, path, methods);

  // The tool protocol: the same reads and the same writes (one submitter), as tools.
  resource(app, MCP_PATH, { POST: createParticipationHandler(deps, createParticipationTools(deps, submitWrite)) });

  resource(app, '/api/inbox', { GET: createInboxHandler(deps) });
  resource(app, '/api/v1/changes', { GET: createChangesHandler(deps) });

  for (const [type, folder] of Object.entries(COLLECTION) as [RecordRef['type'], string][]) {
    resource(app, `/api/v1/${folder}/:id`, { GET: (c) => projection(c, type, `${c.req.param('id') ?? ''}.json`) });
    resource(app, `/${folder}/:name`, { GET: (c) => projection(c, type, c.req.param('name') ?? '') });
  }

  app.notFound(handleNotFound);
  app.onError(createErrorHandler(deps.logger, config.RETRY_AFTER_SECONDS));
  return app;
}
