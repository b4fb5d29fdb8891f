/** Query parameters of the record and collection reads (SPEC 4.3, 8). */
import { z } from 'zod';

/** A query value as an integer in [min, max]; digits only, so "1e1" or "2.0" are refused. */
export const intParam = (min: number, max: number) =>
  z.string().regex(/^\d{1,9}$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

export const DEFAULT_RECORD_LIMIT = 20;

// Unknown parameters are ignored (a CDN or a tracker may add some); known ones are strict.
export const RecordParamsSchema = z.object({
  revision: intParam(1, 999_999_999).optional(),
  page: intParam(1, 100).default(1),
  limit: intParam(1, 20).default(DEFAULT_RECORD_LIMIT),
});
export type RecordParams = z.infer<typeof RecordParamsSchema>;

export const CollectionParamsSchema = RecordParamsSchema.omit({ revision: true });
export type CollectionParams = z.infer<typeof CollectionParamsSchema>;
