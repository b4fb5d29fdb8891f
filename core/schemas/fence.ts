/**
 * The serving fence's shapes: the operator's command (the operator
 * endpoint's body and the CLI's flags) and what it answers. The types in
 * core/serving-fence.ts are inferred from these, so the OpenAPI document
 * (api/openapi.ts) and the code cannot describe two different answers.
 */
import { z } from 'zod';

export const FENCE_REASON_MAX_CHARS = 500;

export const FenceCommandSchema = z.discriminatedUnion('state', [
  z.strictObject({
    state: z.literal('on'),
    /** Shown to every refused writer and on the pages: say what is going on. */
    reason: z.string().trim().min(1, 'reason: say why writes are fenced').max(FENCE_REASON_MAX_CHARS),
    retry_after: z.coerce.number().int().min(1).max(86_400).optional(),
  }),
  z.strictObject({ state: z.literal('off') }),
]);
export type FenceCommand = z.infer<typeof FenceCommandSchema>;

/** What `/api/v1` reports and what a refusal is built from. */
export const ServingStateSchema = z.object({
  writes: z.enum(['open', 'fenced']),
  source: z
    .enum(['operator', 'database'])
    .nullable()
    .describe('`operator`: raised by an operator; `database`: the database refuses writes.'),
  reason: z.string().nullable(),
  since: z
    .string()
    .nullable()
    .describe('When the operator raised it, or when this process first saw the database refuse writes.'),
  retry_after_seconds: z.number().int().nullable(),
});

/** What the operator status shows: the state in force, who raised it, when and why, and the database's own state. */
export const FenceStatusSchema = ServingStateSchema.extend({
  operator: z
    .object({
      fenced: z.boolean(),
      reason: z.string(),
      retry_after_seconds: z.number().int(),
      raised_by: z.string(),
      raised_at: z.string(),
      lowered_by: z.string().nullable(),
      lowered_at: z.string().nullable(),
    })
    .nullable()
    .describe("The operator's fence as stored: the last raise and its lowering. Null if none was ever raised."),
  database: z
    .object({ in_recovery: z.boolean(), read_only: z.boolean() })
    .describe('Whether the database itself takes writes.'),
});

/** What raising or lowering the fence answers (CLI and operator endpoint). */
export const FenceChangeSchema = z.object({
  status: FenceStatusSchema,
  effective_by: z
    .string()
    .describe('When every process acts on the change at the latest (each reads the fence at most a second old).'),
});
