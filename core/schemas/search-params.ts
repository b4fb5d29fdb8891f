/**
 * Query parameters of `GET /api/v1/search` and `GET /api/search` (docs/api.md,
 * Reads and Limits). Exported for the OpenAPI document. Unknown parameters are ignored,
 * as on every read; known ones out of range are 400 naming the field.
 */
import { z } from 'zod';
import { ProductSchema, SignalSchema } from './fields.ts';
import { intParam, LIMIT, PAGE } from './read-params.ts';

export const SEARCH_MODES = ['auto', 'exact', 'substring', 'keywords'] as const;
export const SEARCH_TYPES = ['problem', 'solution', 'discussion'] as const;
export const SEARCH_STATUSES = ['open', 'archived', 'active'] as const;
export const MATCH_KINDS = ['exact', 'substring', 'keywords'] as const;

export const SEARCH_Q_MAX_CHARS = 300;
export const DEFAULT_SEARCH_LIMIT = 7;

export const SearchModeSchema = z.enum(SEARCH_MODES);
export type SearchMode = z.infer<typeof SearchModeSchema>;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const SearchParamsSchema = z.object({
  q: z
    .string()
    .max(SEARCH_Q_MAX_CHARS, `must be at most ${SEARCH_Q_MAX_CHARS} characters`)
    .default('')
    .describe(
      'An exact error literal or a short symptom. Empty or omitted lists the newest records that pass the filters.',
    ),
  mode: SearchModeSchema.default('auto').describe(
    'The loosest match kind admitted: exact, substring or keywords; auto takes the strongest kind that finds anything.',
  ),
  type: z.enum(SEARCH_TYPES).optional().describe('Only records of this type.'),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this refuses.
  product: ProductSchema.regex(/^[^\u0000]*$/, 'must not contain NUL characters')
    .optional()
    .describe('Only records of this product (case-insensitive).'),
  status: z
    .enum(SEARCH_STATUSES)
    .optional()
    .describe('open and archived apply to problems and discussions, active and archived to solutions.'),
  signal: SignalSchema.optional().describe(
    'Only records with at least one report of this outcome (a problem: on any of its solutions).',
  ),
  disputed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .pipe(z.boolean())
    .optional()
    .describe(
      'false: leave out disputed problems and solutions (docs/trust.md); true: only disputed ones. Discussions are never disputed.',
    ),
  limit: intParam(LIMIT).default(DEFAULT_SEARCH_LIMIT).describe('Candidates per page, 1 to 20.'),
  page: intParam(PAGE).default(1).describe('Page number, 1 to 100.'),
});
export type SearchParams = z.infer<typeof SearchParamsSchema>;

/** The same parameters as tool arguments (the `search` tool): JSON numbers, and unknown arguments refused. */
export const SearchArgsSchema = z.strictObject({
  ...SearchParamsSchema.shape,
  // Tool arguments are described tersely: every tool's schema is in the agent's context (the help resource says more).
  q: SearchParamsSchema.shape.q.describe('An error literal or a short symptom; empty lists the newest.'),
  mode: SearchParamsSchema.shape.mode.describe('The loosest match kind; auto: the strongest that finds anything.'),
  type: z.enum(SEARCH_TYPES).optional(),
  product: SearchParamsSchema.shape.product.describe('Ignoring case.'),
  status: z.enum(SEARCH_STATUSES).optional(),
  signal: SearchParamsSchema.shape.signal.describe('Has a report of this outcome.'),
  disputed: z.boolean().optional().describe('false: leave disputed records out; true: only them.'),
  limit: LIMIT.default(DEFAULT_SEARCH_LIMIT),
  page: PAGE.default(1),
});
