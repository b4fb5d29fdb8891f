/** The operator's fence command, as the operator endpoint's body and the CLI's flags. */
import { z } from 'zod';
import { FENCE_REASON_MAX_CHARS } from '../serving-fence.ts';

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
