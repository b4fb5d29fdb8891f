/**
 * The read tools, one entry each. They need no credential (public reads,
 * SPEC 5.1) and answer the same facts as the JSON projection, built by the
 * same view builders the projections are rendered from. Adding a read tool
 * (`get_discussion`, `search`) is one more entry in READ_TOOLS.
 */
import type { z } from 'zod';
import { SearchArgsSchema } from '../../core/schemas/search-params.ts';
import { searchWithinLimit } from '../routes/search.ts';
import { isId } from '../../core/ids.ts';
import { RecordArgsSchema, type RecordParams } from '../../core/schemas/read-params.ts';
import type { RecordRef } from '../../core/types.ts';
import type { Queryable } from '../../db/pool.ts';
import { buildDiscussionView } from '../../read-model/discussion.ts';
import { buildProblemView } from '../../read-model/problem.ts';
import { buildSolutionView } from '../../read-model/solution.ts';
import type { AppDeps } from '../app-deps.ts';
import { unknownRecord } from '../routes/projections.ts';
import { parseOrThrow } from '../validation.ts';
import { inputSchemaOf, UNTRUSTED_CONTENT, type Tool } from './tool.ts';

export interface ReadTool<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  /** Validates the arguments; its JSON Schema is what tools/list shows. */
  schema: S;
  /** Answers a JSON object, or throws an ApiError (e.g. 404 `not_found`). Gets the app's dependencies, so a search can use more than the database. */
  read(deps: AppDeps, args: z.output<S>): Promise<object>;
}

/** Keeps each entry's argument type while the table holds them side by side. */
function defineReadTool<S extends z.ZodType>(tool: ReadTool<S>): ReadTool {
  return tool as unknown as ReadTool;
}

type BuildView = (db: Queryable, id: string, params: RecordParams) => Promise<object | null>;

/** A canonical record by id, optionally pinned to a revision, with a page of its inner list. */
function recordTool(name: string, type: RecordRef['type'], build: BuildView, what: string): ReadTool {
  return defineReadTool({
    name,
    title: `Get a ${type}`,
    description: `${what} Same facts as GET /api/v1/${type}s/{id} (same arguments and bounds as its query). ${UNTRUSTED_CONTENT}`,
    schema: RecordArgsSchema,
    async read({ pool }, { id, ...params }) {
      // A wrong-shaped id is simply unknown, as on the HTTP read paths.
      const view = isId(type, id) ? await build(pool, id, params) : null;
      if (!view) throw unknownRecord({ type, id }, params.revision);
      return view;
    },
  });
}

export const READ_TOOLS: readonly ReadTool[] = [
  recordTool('get_problem', 'problem', buildProblemView,
    'A problem: its text, product, error literal, environment and tags at one revision, and a page of its solutions with their outcome signals.'),
  recordTool('get_solution', 'solution', buildSolutionView,
    'A solution at one revision: its text, applicability, limitations, the problem it solves, its trust (confidence from independent confirmations, disputed state and counter-evidence), outcomes per revision and environment, feedback evidence and a page of reported outcomes.'),
  recordTool('get_discussion', 'discussion', buildDiscussionView,
    'A discussion: its opening post, product and a page of its replies (oldest first).'),
  defineReadTool({
    name: 'search',
    title: 'Search problems, solutions and discussions',
    description: `Paste an exact error literal or a short symptom. Same parameters, bounds and answer as GET /api/search (candidates with match kind, coverage, outcome signals and trust, plus coverage of the whole query; disputed=false leaves disputed records out). ${UNTRUSTED_CONTENT}`,
    schema: SearchArgsSchema,
    read: async ({ pool, config }, args) => ({ content_trust: 'untrusted', ...(await searchWithinLimit(pool, args, config.RETRY_AFTER_SECONDS)) }),
  }),
];

export function createReadTool(deps: AppDeps, spec: ReadTool): Tool {
  return {
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchemaOf(spec.schema),
      annotations: { title: spec.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async run(args) {
      const parsed = parseOrThrow(spec.schema, args, 'arguments');
      return { ...(await spec.read(deps, parsed)) };
    },
  };
}
