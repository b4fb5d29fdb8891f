/**
 * The read routes of the API, in one table: the router registers each
 * path's handler from it (api/app.ts), the OpenAPI document describes each
 * from it (api/openapi.ts), and the read tools name their HTTP twin from it
 * (api/mcp/read-tools.ts), so a read is added, renamed or documented in one
 * place. The writes have the same in operations/registry.ts.
 *
 * Not here: the record projections and the collections, whose paths
 * negotiate HTML, JSON and Markdown (their documentation is generated per
 * record type in api/openapi.ts), and the prerendered pages (STATIC_PAGES).
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiIndexSchema } from '../../core/schemas/api-index.ts';
import { ChangesParamsSchema, InboxParamsSchema } from '../../core/schemas/read-params.ts';
import { ChangesSchema, InboxSchema, SearchResultSchema, WhoamiSchema } from '../../core/schemas/responses.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { HELP_PATH } from '../mcp/help.ts';

type Handler = (c: Context) => Response | Promise<Response>;
type Json = Record<string, unknown>;

/** The handlers the table's routes are served by, built by the app from its dependencies. */
export interface ReadHandlers {
  apiIndex: Handler;
  openapi: Handler;
  robots: Handler;
  llms: Handler;
  sitemapIndex: Handler;
  sitemapChunk: Handler;
  favicon: Handler;
  searchV1: Handler;
  search: Handler;
  changes: Handler;
  inbox: Handler;
  whoami: Handler;
  toolsHelp: Handler;
}

/** What the OpenAPI document says of a read (api/openapi.ts turns it into the operation). */
export interface ReadRouteDoc {
  operationId: string;
  tag: string;
  summary: string;
  /** The query parameters: the schema the handler parses them with. */
  query?: z.ZodType;
  /** A parameter in the path, with an example a client can send. */
  pathParameter?: { name: string; description: string; example: string };
  /** Media type → schema (a zod schema, or JSON Schema for text). */
  content: Record<string, z.ZodType | Json>;
  notFound?: boolean;
  jsonOnly?: boolean;
  auth?: boolean;
  extraHeaders?: string[];
  /** Search's own 503, when its statements run past their limit. */
  searchUnavailable?: boolean;
}

export interface ReadRoute {
  /** The path in OpenAPI form (`/sitemaps/{file}`). */
  path: string;
  handler: keyof ReadHandlers;
  doc: ReadRouteDoc;
}

const TEXT = { 'text/plain': { type: 'string' } };
const XML = { 'application/xml': { type: 'string' } };
const OPENAPI = { 'application/json': { type: 'object', description: 'This OpenAPI 3.1 document.' } };

export const READ_ROUTES: readonly ReadRoute[] = [
  {
    path: '/api/v1',
    handler: 'apiIndex',
    doc: {
      operationId: 'api_index',
      tag: 'discovery',
      summary:
        'The read API index: operations, policy values, limits, rate limits, and `serving`: whether writes are open or fenced, since when and why.',
      content: { 'application/json': ApiIndexSchema },
      jsonOnly: true,
      extraHeaders: ['Link'],
    },
  },
  {
    path: '/api/v1/openapi.json',
    handler: 'openapi',
    doc: {
      operationId: 'openapi_document',
      tag: 'discovery',
      summary: 'This document.',
      content: OPENAPI,
      jsonOnly: true,
    },
  },
  {
    path: '/openapi.json',
    handler: 'openapi',
    doc: {
      operationId: 'openapi_document_root',
      tag: 'discovery',
      summary: 'This document, at the conventional place.',
      content: OPENAPI,
    },
  },
  {
    path: '/robots.txt',
    handler: 'robots',
    doc: { operationId: 'robots_txt', tag: 'discovery', summary: 'Crawling rules, naming the sitemap.', content: TEXT },
  },
  {
    path: '/llms.txt',
    handler: 'llms',
    doc: {
      operationId: 'llms_txt',
      tag: 'discovery',
      summary: 'How an agent searches, reads and contributes (llmstxt.org).',
      content: TEXT,
    },
  },
  {
    path: '/sitemap.xml',
    handler: 'sitemapIndex',
    doc: {
      operationId: 'sitemap_index',
      tag: 'discovery',
      summary: 'The sitemap index over every record.',
      content: XML,
    },
  },
  {
    path: '/sitemaps/{file}',
    handler: 'sitemapChunk',
    doc: {
      operationId: 'sitemap_chunk',
      tag: 'discovery',
      summary: 'One sitemap chunk: the records of one kind created on one day.',
      pathParameter: {
        name: 'file',
        description: 'A chunk named in the sitemap index, e.g. problems-2026-11-24.xml.',
        example: 'problems-2026-11-24.xml',
      },
      content: XML,
      notFound: true,
    },
  },
  {
    path: '/favicon.ico',
    handler: 'favicon',
    doc: {
      operationId: 'favicon_ico',
      tag: 'discovery',
      summary: 'The site icon (the same SVG as /favicon.svg).',
      content: { 'image/svg+xml': { type: 'string' } },
    },
  },
  {
    path: '/api/v1/search',
    handler: 'searchV1',
    doc: {
      operationId: 'search',
      tag: 'search',
      summary: 'Compact first-stage candidates, each with its match kind and coverage.',
      query: SearchParamsSchema,
      content: { 'application/json': SearchResultSchema },
      jsonOnly: true,
      extraHeaders: ['Link'],
      searchUnavailable: true,
    },
  },
  {
    path: '/api/search',
    handler: 'search',
    doc: {
      operationId: 'search_with_coverage',
      tag: 'search',
      summary: 'The same candidates plus coverage of the whole query.',
      query: SearchParamsSchema,
      content: { 'application/json': SearchResultSchema },
      jsonOnly: true,
      extraHeaders: ['Link'],
      searchUnavailable: true,
    },
  },
  {
    path: '/api/v1/changes',
    handler: 'changes',
    doc: {
      operationId: 'list_changes',
      tag: 'search',
      summary: 'Public committed changes after a cursor; Link rel=next while has_more.',
      query: ChangesParamsSchema,
      content: { 'application/json': ChangesSchema },
      jsonOnly: true,
      extraHeaders: ['Link'],
    },
  },
  {
    path: '/api/inbox',
    handler: 'inbox',
    doc: {
      operationId: 'read_inbox',
      tag: 'community',
      summary: 'Your unacknowledged replies; reading never acknowledges.',
      query: InboxParamsSchema,
      content: { 'application/json': InboxSchema },
      jsonOnly: true,
      auth: true,
    },
  },
  {
    path: '/api/whoami',
    handler: 'whoami',
    doc: {
      operationId: 'whoami',
      tag: 'identity',
      summary: 'Verify a direct credential: who it is and what it may do.',
      content: { 'application/json': WhoamiSchema },
      jsonOnly: true,
      auth: true,
    },
  },
  {
    path: HELP_PATH,
    handler: 'toolsHelp',
    doc: {
      operationId: 'tools_help',
      tag: 'tools',
      summary: 'Every tool of the tool protocol in full: what tools/list leaves out to stay small.',
      content: { 'text/markdown': { type: 'string' } },
    },
  },
];

/** The router's form of a path (`/sitemaps/:file`). */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The route of an operation, by its operationId (the read tools name their twin with it). */
export function readRoute(operationId: string): ReadRoute {
  const route = READ_ROUTES.find((r) => r.doc.operationId === operationId);
  if (!route) throw new Error(`no read route ${operationId}`);
  return route;
}
