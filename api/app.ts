/**
 * The HTTP app. `createApp(deps)` only wires routes to handlers; it has no
 * side effects, so tests build it directly.
 */
import { Hono } from 'hono';
import { COLLECTION, type RecordRef } from '../core/types.ts';
import type { AppDeps, AppEnv } from './app-deps.ts';
import { publicReadCors } from './http/cors.ts';
import { createErrorHandler, createNotFoundHandler, handleNotFound } from './http/errors.ts';
import { createNotFoundPage } from './http/not-found-page.ts';
import {
  createParticipationHandler,
  createParticipationTools,
  createReadTools,
  MCP_PATH,
  PUBLIC_INSTRUCTIONS,
} from './mcp/participate.ts';
import { MCP_PUBLIC_PATH, MCP_ROOT_PATH } from './mcp/path.ts';
import { mountAccountsAndOAuth } from './oauth/mount.ts';
import { negotiateRecordName, refuseUnacceptableMedia } from './http/negotiation.ts';
import { clientAddress, readRule } from './limits/rate-limit.ts';
import { createMetricsHandler, observeRequests } from './http/observability.ts';
import { requestId } from './http/request-id.ts';
import { headContentLength } from './http/head-length.ts';
import { guardRequestInput } from './http/input-guard.ts';
import { requireOperator } from './operator-token.ts';
import { resource, type Methods } from './http/routing.ts';
import { createApiIndex } from './routes/api-index.ts';
import { createAssetHandler } from './routes/assets.ts';
import { createChangesHandler } from './routes/changes.ts';
import { createDiscoveryHandlers } from './routes/discovery.ts';
import { createCollectionHandlers } from './routes/collections.ts';
import { createInboxHandler } from './routes/inbox.ts';
import { createAdmissionHandler, createWhoamiHandler } from './routes/identity.ts';
import { STATIC_PAGES } from './routes/pages.ts';
import { createSearchIndexHandler } from './routes/search-index.ts';
import { createWriteHandler } from './routes/writes.ts';
import { createOperatorHandlers } from './routes/operator.ts';
import { createProjectionReader } from './routes/projections.ts';
import { createSearchHandlers } from './routes/search.ts';
import { CACHE, sendRepresentation } from './http/representation.ts';
import { createHelpDocuments } from './mcp/help.ts';
import { READ_ROUTES, routerPath, type ReadHandlers } from './reads/read-routes.ts';
import { OPERATIONS } from '../operations/registry.ts';
import { createWriteSubmitter } from './writes/write-submission.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(publicReadCors());
  // Before any route: bytes no handler can use in the path, query or cookies get 400 (api/http/input-guard.ts).
  app.use(guardRequestInput());
  app.use(refuseUnacceptableMedia());
  app.use(observeRequests(deps.recordRequest));
  app.use(headContentLength());
  // Reads are limited per client address; writes per identity, in their handlers.
  app.use(async function limitReads(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      await deps.rateLimit(c, 'read', clientAddress(c, config.TRUSTED_PROXY_HOPS), readRule(config));
    }
    await next();
  });

  const projection = createProjectionReader(deps);
  const collections = createCollectionHandlers(deps);
  const asset = createAssetHandler(deps);
  const submitWrite = createWriteSubmitter(deps);

  resource(app, '/', { GET: collections.homePage });
  resource(app, '/_astro/:file', { GET: (c) => asset(c, `_astro/${c.req.param('file')}`) });
  const apiIndex = createApiIndex(config, deps.fence);
  const discovery = createDiscoveryHandlers(deps);
  const search = createSearchHandlers(deps);

  // Metrics are operational detail: behind the operator token here, token-free only on API_METRICS_PORT.
  const metrics = createMetricsHandler(deps);
  resource(app, '/metrics', {
    GET: (c) => {
      requireOperator(c, config.OPERATOR_TOKEN_SHA256);
      return metrics(c);
    },
  });

  const operator = createOperatorHandlers(deps);
  resource(app, '/api/ops/rebuild', { POST: operator.rebuild });
  resource(app, '/api/ops/status', { GET: operator.status });
  resource(app, '/api/ops/fence', { GET: operator.readFence, POST: operator.changeFence });

  resource(app, '/pagefind/*', { GET: createSearchIndexHandler(deps) });
  for (const page of STATIC_PAGES) {
    resource(app, page.path, { GET: (c) => asset(c, page.file, CACHE.page, page.contentSecurityPolicy) });
  }

  resource(app, '/api/public/admission', { POST: createAdmissionHandler(deps) });

  // Paths carry their reads and writes together, so OPTIONS and 405 list both.
  const paths = new Map<string, Methods>([
    ['/api/problems', { GET: collections.problems }],
    ['/api/solutions', { GET: collections.solutions }],
    ['/api/discussions', { GET: collections.discussions }],
  ]);
  // The same collections as HTML lists, for people (api/routes/collections.ts says why on demand).
  resource(app, '/problems', { GET: collections.problemsPage });
  resource(app, '/solutions', { GET: collections.solutionsPage });
  resource(app, '/discussions', { GET: collections.discussionsPage });
  for (const op of OPERATIONS) {
    paths.set(op.path, { ...paths.get(op.path), [op.method]: createWriteHandler(submitWrite, op) });
  }
  for (const [path, methods] of paths) resource(app, path, methods);

  // Accounts, passkeys and the OAuth authorization server for /mcp/participate.
  const { authenticateCaller } = mountAccountsAndOAuth(app, deps);

  // The tool protocol: the same reads and the same writes (one submitter), as tools; a protected resource.
  const participationTools = createParticipationTools(deps, submitWrite);
  const readTools = createReadTools(deps);
  const help = createHelpDocuments(
    config.ASTRO_CLIENT_DIR,
    participationTools,
    new Set(readTools.map((tool) => tool.definition.name)),
  );
  resource(app, MCP_PATH, {
    POST: createParticipationHandler(deps, participationTools, { authenticate: authenticateCaller, help }),
  });
  // The read tools alone, for anyone: no credential, no OAuth.
  const publicTools = {
    POST: createParticipationHandler(deps, readTools, { instructions: PUBLIC_INSTRUCTIONS, help }),
  };
  resource(app, MCP_PUBLIC_PATH, publicTools);
  resource(app, MCP_ROOT_PATH, publicTools);

  // The read routes of the table (api/reads/read-routes.ts), which the OpenAPI document describes too.
  const reads: ReadHandlers = {
    apiIndex: apiIndex.index,
    openapi: apiIndex.openapi,
    robots: discovery.robots,
    llms: discovery.llms,
    sitemapIndex: discovery.sitemapIndex,
    sitemapChunk: discovery.sitemapChunk,
    // Browsers and feed readers ask for /favicon.ico whatever a page declares: the same SVG.
    favicon: (c) => asset(c, 'favicon.svg', CACHE.page),
    searchV1: search.searchV1,
    search: search.search,
    changes: createChangesHandler(deps),
    inbox: createInboxHandler(deps),
    whoami: createWhoamiHandler(deps),
    toolsHelp: async (c) =>
      sendRepresentation(c, {
        body: Buffer.from(await help[0]!.read()),
        contentType: help[0]!.mimeType,
        cacheControl: CACHE.page,
      }),
  };
  for (const route of READ_ROUTES) resource(app, routerPath(route.path), { GET: reads[route.handler] });

  for (const [type, folder] of Object.entries(COLLECTION) as [RecordRef['type'], string][]) {
    resource(app, `/api/v1/${folder}/:id`, { GET: (c) => projection(c, type, `${c.req.param('id') ?? ''}.json`) });
    resource(app, `/${folder}/:name`, {
      GET: (c) => projection(c, type, negotiateRecordName(c, c.req.param('name') ?? '')),
    });
  }

  const notFoundPage = createNotFoundPage(config.ASTRO_CLIENT_DIR);
  app.notFound(createNotFoundHandler(notFoundPage));
  app.onError(createErrorHandler(deps.logger, config.RETRY_AFTER_SECONDS, notFoundPage));
  return app;
}

/** The token-free metrics listener of API_METRICS_PORT (keep that port off the public network). */
export function createMetricsApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.use(headContentLength());
  resource(app, '/metrics', { GET: createMetricsHandler(deps) });
  app.notFound(handleNotFound);
  app.onError(createErrorHandler(deps.logger, deps.config.RETRY_AFTER_SECONDS));
  return app;
}
