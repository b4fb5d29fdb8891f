/**
 * The HTTP app. `createApp(deps)` only wires routes to handlers; it has no
 * side effects, so tests build it directly.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from './app-deps.ts';
import { createErrorHandler, handleNotFound } from './errors.ts';
import { clientAddress } from './rate-limit.ts';
import { requestId } from './request-id.ts';
import { resource, type Methods } from './routing.ts';
import { serveApiIndex } from './routes/api-index.ts';
import { createAssetHandler } from './routes/assets.ts';
import { createCollectionHandlers } from './routes/collections.ts';
import { createAdmissionHandler, createWhoamiHandler } from './routes/identity.ts';
import { createWriteHandler } from './routes/writes.ts';
import { createProjectionReader } from './routes/projections.ts';
import { createSearchHandlers } from './routes/search.ts';
import { CACHE } from './representation.ts';
import { WRITE_OPERATIONS } from './write-operations.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  app.use(requestId());
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
  const search = createSearchHandlers(deps);

  resource(app, '/', { GET: (c) => asset(c, 'index.html', CACHE.collection) });
  resource(app, '/_astro/:file', { GET: (c) => asset(c, `_astro/${c.req.param('file')}`) });
  resource(app, '/api/v1', { GET: serveApiIndex });
  resource(app, '/api/v1/search', { GET: search.searchV1 });
  resource(app, '/api/search', { GET: search.search });

  resource(app, '/api/public/admission', { POST: createAdmissionHandler(deps) });
  resource(app, '/api/whoami', { GET: createWhoamiHandler(deps) });

  // Paths carry their reads and writes together, so OPTIONS and 405 list both.
  const paths = new Map<string, Methods>([
    ['/api/problems', { GET: collections.problems }],
    ['/api/solutions', { GET: collections.solutions }],
  ]);
  for (const op of WRITE_OPERATIONS) {
    paths.set(op.path, { ...paths.get(op.path), [op.method]: createWriteHandler(deps, op) });
  }
  for (const [path, methods] of paths) resource(app, path, methods);

  resource(app, '/api/v1/problems/:id', { GET: (c) => projection(c, 'problem', `${c.req.param('id') ?? ''}.json`) });
  resource(app, '/api/v1/solutions/:id', { GET: (c) => projection(c, 'solution', `${c.req.param('id') ?? ''}.json`) });
  resource(app, '/problems/:name', { GET: (c) => projection(c, 'problem', c.req.param('name') ?? '') });
  resource(app, '/solutions/:name', { GET: (c) => projection(c, 'solution', c.req.param('name') ?? '') });

  app.notFound(handleNotFound);
  app.onError(createErrorHandler(deps.logger, config.RETRY_AFTER_SECONDS));
  return app;
}
