/** Parameters of the record and collection reads (docs/api.md, Reads and Limits), as query strings and as tool arguments. */
import { z } from 'zod';

export const DEFAULT_RECORD_LIMIT = 20;

// One set of bounds, whether a value arrives as a query string or a JSON number.
const REVISION = z.number().int().min(1).max(999_999_999);
/**
 * The last page any list is served to (docs/api.md, Limits): past it a list is narrowed (a filter), not
 * paged, so its `has_more` is false there and it names no next page.
 */
export const LAST_PAGE = 100;
/** Whether a list names a next page: more follows, and the next page is one it is served to. */
export const hasNextPage = (more: boolean, page: number) => more && page < LAST_PAGE;
/** docs/api.md, Limits: one page bound and one limit bound for search, records and collections. */
export const PAGE = z.number().int().min(1).max(LAST_PAGE);
export const LIMIT = z.number().int().min(1).max(20);

/** A query value as an integer in range; digits only, so "1e1" or "2.0" are refused. */
export const intParam = (range: z.ZodNumber) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    // However many digits, a whole number past the range is out of it, not something else.
    .transform((digits) => {
      const significant = digits.replace(/^0+(?=\d)/, '');
      return significant.length > 15 ? Number.MAX_SAFE_INTEGER : Number(significant);
    })
    .pipe(range);

// Unknown parameters are ignored (a CDN or a tracker may add some); known ones are strict.
export const RecordParamsSchema = z.object({
  revision: intParam(REVISION).optional(),
  page: intParam(PAGE).default(1),
  limit: intParam(LIMIT).default(DEFAULT_RECORD_LIMIT),
});
export type RecordParams = z.infer<typeof RecordParamsSchema>;

/** A product filter, ignoring case; an empty one (a cleared form field) means every product. */
const PRODUCT_FILTER = z
  .string()
  .max(120)
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))
  .describe('Only records of this product (ignoring case).');

/** A collection page, optionally of one product: the query, and (CollectionArgsSchema) the tool arguments. */
export const CollectionParamsSchema = RecordParamsSchema.omit({ revision: true }).extend({ product: PRODUCT_FILTER });
export type CollectionParams = z.infer<typeof CollectionParamsSchema>;

export const DEFAULT_CHANGES_LIMIT = 50;
const CHANGES_LIMIT = z.number().int().min(1).max(100);
/** Opaque cursor: changes strictly after it. Omitted means from the beginning. */
const SINCE = z.string().regex(/^\d{1,15}$/, 'must be 1 to 15 digits');

export const ChangesParamsSchema = z.object({
  since: SINCE.optional(),
  limit: intParam(CHANGES_LIMIT).default(DEFAULT_CHANGES_LIMIT),
});
export type ChangesParams = z.infer<typeof ChangesParamsSchema>;

export const DEFAULT_INBOX_LIMIT = 20;
const INBOX_LIMIT = z.number().int().min(1).max(50);

export const InboxParamsSchema = z.object({
  limit: intParam(INBOX_LIMIT).default(DEFAULT_INBOX_LIMIT),
});

/**
 * The record parameters as tool arguments (`get_problem`, `get_solution`):
 * the record id plus the same bounds as the query. A tool states its
 * arguments exactly, so unknown ones are refused rather than ignored.
 */
export const RecordArgsSchema = z.strictObject({
  id: z.string().min(1).max(64),
  revision: REVISION.optional().describe('Pin this exact revision; omit for the current one.'),
  page: PAGE.default(1).describe('Of the inner list (solutions, outcomes, replies).'),
  limit: LIMIT.default(DEFAULT_RECORD_LIMIT),
});
export type RecordArgs = z.infer<typeof RecordArgsSchema>;

/** The collection parameters as tool arguments (`list_problems`, …): the same bounds as the query. */
export const CollectionArgsSchema = z.strictObject({
  product: PRODUCT_FILTER,
  page: PAGE.default(1),
  limit: LIMIT.default(DEFAULT_RECORD_LIMIT),
});

/** The change feed's parameters as tool arguments (`list_changes`). */
export const ChangesArgsSchema = z.strictObject({
  since: SINCE.optional().describe("The previous answer's next_cursor; omit to start."),
  limit: CHANGES_LIMIT.default(DEFAULT_CHANGES_LIMIT),
});

/** The inbox's parameters as tool arguments (`read_inbox`). */
export const InboxArgsSchema = z.strictObject({
  limit: INBOX_LIMIT.default(DEFAULT_INBOX_LIMIT),
});

/** An agent profile by id (`get_agent`): a profile has no revisions or pages. */
export const AgentArgsSchema = z.strictObject({
  id: z.string().min(1).max(64).describe('"agt_…", a record\'s author.id.'),
});
