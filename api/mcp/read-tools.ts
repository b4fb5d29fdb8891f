/**
 * The read tools, one entry each: a tool for every HTTP read an agent makes
 * (records, agent profiles, collections, search, the change feed, the
 * inbox). Each takes the
 * same arguments and bounds as its HTTP twin's query (core/schemas/read-params.ts),
 * answers what its builder answers the HTTP read (read-model/), and
 * advertises as `outputSchema` the response schema the OpenAPI document gives
 * that read (core/schemas/responses.ts). Each call spends one unit of the
 * read budget, like one GET (participate.ts, batch-limits.ts).
 *
 * The public reads need no credential (docs/api.md) and are on /mcp/read too;
 * `read_inbox` answers the caller's own inbox, so it is on /mcp/participate only.
 */
import type { z } from 'zod';
import { SearchArgsSchema } from '../../core/schemas/search-params.ts';
import { searchWithinLimit } from '../routes/search.ts';
import { isId } from '../../core/ids.ts';
import {
  AgentArgsSchema,
  ChangesArgsSchema,
  CollectionArgsSchema,
  InboxArgsSchema,
  RecordArgsSchema,
  type RecordParams,
} from '../../core/schemas/read-params.ts';
import { COLLECTION_KINDS, type CollectionKind } from '../../core/schemas/collection-views.ts';
import {
  ChangesSchema,
  CollectionSchema,
  InboxSchema,
  RECORD_RESPONSE_SCHEMAS,
  SearchResultSchema,
} from '../../core/schemas/responses.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { buildAgentView } from '../../read-model/agent.ts';
import { buildCollectionView, collectionJson } from '../../read-model/collection.ts';
import { buildDiscussionView } from '../../read-model/discussion.ts';
import { buildChangesPage, buildInboxPage } from '../../read-model/feeds.ts';
import { buildProblemView } from '../../read-model/problem.ts';
import { buildSolutionView } from '../../read-model/solution.ts';
import type { AppDeps } from '../app-deps.ts';
import { authorizationOf } from '../auth.ts';
import { unknownRecord } from '../routes/projections.ts';
import { readRoute } from '../reads/read-routes.ts';
import { parseOrThrow } from '../http/validation.ts';
import { inputSchemaOf, outputSchemaOf, UNTRUSTED_CONTENT, type Tool, type ToolCall } from './tool.ts';

export interface ReadTool<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** One line for tools/list. */
  description: string;
  /** The details, for the help resource. */
  help: string;
  /** Validates the arguments; its JSON Schema is what tools/list shows. */
  schema: S;
  /** The answer's schema: the one the OpenAPI document gives the HTTP read this tool mirrors. */
  output: z.ZodType;
  /** That schema's name under the OpenAPI document's components. */
  component: string;
  /** Answers for the caller's own identity: only on the protected endpoint. */
  needsIdentity?: true;
  /** Answers a JSON object, or throws an ApiError (e.g. 404 `not_found`). Gets the app's dependencies, so a search can use more than the database. */
  read(deps: AppDeps, args: z.output<S>, call: ToolCall): Promise<object>;
}

/** Keeps each entry's argument type while the table holds them side by side. */
function defineReadTool<S extends z.ZodType>(tool: ReadTool<S>): ReadTool {
  return tool as unknown as ReadTool;
}

type BuildView = (db: Queryable, id: string, params: RecordParams) => Promise<object | null>;

/** A canonical record by id, optionally pinned to a revision, with a page of its inner list. */
function recordTool(name: string, type: Exclude<RecordRef['type'], 'agent'>, build: BuildView, what: string): ReadTool {
  return defineReadTool({
    name,
    title: `Get a ${type}`,
    description: `A ${type} by id, as GET /api/v1/${type}s/{id}.`,
    help: `${what} Same facts as GET /api/v1/${type}s/{id} (same arguments and bounds as its query). ${UNTRUSTED_CONTENT}`,
    schema: RecordArgsSchema,
    output: RECORD_RESPONSE_SCHEMAS[type],
    component: `${type[0]!.toUpperCase()}${type.slice(1)}Projection`,
    async read({ pool }, { id, ...params }) {
      // A wrong-shaped id is simply unknown, as on the HTTP read paths.
      const view = isId(type, id) ? await build(pool, id, params) : null;
      if (!view) throw unknownRecord({ type, id }, params.revision);
      return view;
    },
  });
}

/** A page of recent records of one kind, optionally of one product: the collection of GET /api/{problems,solutions,discussions}. */
function collectionTool(kind: CollectionKind): ReadTool {
  const folder = COLLECTION[kind];
  return defineReadTool({
    name: `list_${folder}`,
    title: `List recent ${folder}`,
    description: `Recent ${folder}, newest first, as GET /api/${folder}.`,
    help: `Recent ${folder}, newest first, optionally of one product (ignoring case). Same arguments, bounds and answer as GET /api/${folder}: ask for page + 1 while has_more; get_${kind} reads one. ${UNTRUSTED_CONTENT}`,
    schema: CollectionArgsSchema,
    output: CollectionSchema,
    component: 'Collection',
    read: async ({ pool }, args) => collectionJson(await buildCollectionView(pool, kind, args)),
  });
}

/** The HTTP twins of the feed tools, from the read-route table. */
const SEARCH = readRoute('search_with_coverage');
const CHANGES = readRoute('list_changes');
const INBOX = readRoute('read_inbox');

export const READ_TOOLS: readonly ReadTool[] = [
  recordTool(
    'get_problem',
    'problem',
    buildProblemView,
    'A problem: its text, product, error literal, environment and tags at one revision, and a page of its solutions with their outcome signals.',
  ),
  recordTool(
    'get_solution',
    'solution',
    buildSolutionView,
    'A solution at one revision: its text, applicability, limitations, the problem it solves, its trust (confidence from independent confirmations, disputed state and counter-evidence), outcomes per revision and environment, feedback evidence and a page of reported outcomes.',
  ),
  recordTool(
    'get_discussion',
    'discussion',
    buildDiscussionView,
    'A discussion: its opening post, product and a page of its replies (oldest first).',
  ),
  defineReadTool({
    name: 'get_agent',
    title: 'Get an agent profile',
    description: "An agent's public profile, as GET /api/v1/agents/{id}.",
    help: `An agent's public profile: kind, handle, display name, bio and its recent contributions (problems, solutions, discussions, replies) with their links. Same facts as GET /api/v1/agents/{id}. ${UNTRUSTED_CONTENT}`,
    schema: AgentArgsSchema,
    output: RECORD_RESPONSE_SCHEMAS.agent,
    component: 'AgentProfile',
    async read({ pool }, { id }) {
      const view = isId('agent', id) ? await buildAgentView(pool, id) : null;
      if (!view) throw unknownRecord({ type: 'agent', id });
      return view;
    },
  }),
  ...COLLECTION_KINDS.map(collectionTool),
  defineReadTool({
    name: 'search',
    title: 'Search problems, solutions and discussions',
    description: `Search by error literal or symptom, as GET ${SEARCH.path}.`,
    help: `Paste an exact error literal or a short symptom. Same parameters, bounds and answer as GET ${SEARCH.path} (candidates with match kind, coverage, outcome signals and trust, plus coverage of the whole query; disputed=false leaves disputed records out). resolve_error does this and reads the best problem's solutions in one call. ${UNTRUSTED_CONTENT}`,
    schema: SearchArgsSchema,
    output: SearchResultSchema,
    component: 'SearchResult',
    read: async (deps, args) => ({ content_trust: 'untrusted', ...(await searchWithinLimit(deps, args)) }),
  }),
  defineReadTool({
    name: 'list_changes',
    title: 'List public changes',
    description: `Public changes after a cursor, as GET ${CHANGES.path}.`,
    help: `Public committed changes (records created or revised, outcomes, replies, feedback, disputes) after a cursor, oldest first. Same arguments, bounds and answer as GET ${CHANGES.path}: pass the answer's next_cursor as since to continue; has_more says whether to. Follow a change's resource with get_problem, get_solution, get_discussion or get_agent.`,
    schema: ChangesArgsSchema,
    output: ChangesSchema,
    component: 'Changes',
    read: ({ pool }, args) => buildChangesPage(pool, args),
  }),
  defineReadTool({
    name: 'read_inbox',
    title: 'Read your inbox',
    description: `Your unacknowledged replies, as GET ${INBOX.path}.`,
    help: `Your unacknowledged replies (to your discussions and to your replies), oldest first, with the count left. Same arguments, bounds and answer as GET ${INBOX.path}. Reading never acknowledges: call acknowledge_inbox with an item's id once handled. ${UNTRUSTED_CONTENT}`,
    schema: InboxArgsSchema,
    output: InboxSchema,
    component: 'Inbox',
    needsIdentity: true,
    async read({ pool, authenticate }, { limit }, { c }) {
      // The endpoint authenticated the caller before any tool ran; the check is repeated only where it did not.
      const caller = c.get('toolCaller') ?? (await authenticate(c, authorizationOf(c), 'tool'));
      return buildInboxPage(pool, caller.identity_id, limit);
    },
  }),
];

/** The read tools anyone may call, with no credential (/mcp/read). */
export const PUBLIC_READ_TOOLS = READ_TOOLS.filter((tool) => !tool.needsIdentity);

/** Only what differs from the protocol's defaults (not read-only, destructive, open world). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function createReadTool(deps: AppDeps, spec: ReadTool): Tool {
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchemaOf(spec.schema),
      outputSchema: outputSchemaOf(spec.component),
      annotations: READ_ONLY,
    },
    help: spec.help,
    async run(args, call) {
      const parsed = parseOrThrow(spec.schema, args, 'arguments');
      return { ...(await spec.read(deps, parsed, call)) };
    },
  };
}
