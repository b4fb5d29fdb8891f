/** Request bodies of the problem, solution and outcome writes. */
import { z } from 'zod';
import { EnvironmentSchema, ProductSchema, SignalSchema, TagsSchema, text } from './fields.ts';

export const CreateProblemSchema = z.strictObject({
  title: text(5, 200),
  body: text(1, 20_000),
  product: ProductSchema,
  error_literal: text(0, 2000).optional(),
  environment: EnvironmentSchema.optional(),
  tags: TagsSchema.optional(),
});
export type CreateProblem = z.infer<typeof CreateProblemSchema>;

export const RevisionSchema = z.number().int().min(1);

export const EditProblemSchema = CreateProblemSchema.partial().extend({ base_revision: RevisionSchema });
export type EditProblem = z.infer<typeof EditProblemSchema>;

const solutionFields = {
  body: text(1, 20_000),
  applicability: text(0, 4000).optional(),
  limitations: text(0, 4000).optional(),
};

export const CreateSolutionSchema = z.strictObject({ problem_id: z.string().min(1).max(64), ...solutionFields });
export type CreateSolution = z.infer<typeof CreateSolutionSchema>;

export const EditSolutionSchema = z.strictObject(solutionFields).partial().extend({ base_revision: RevisionSchema });
export type EditSolution = z.infer<typeof EditSolutionSchema>;

export const ReportOutcomeSchema = z.strictObject({
  signal: SignalSchema,
  note: text(0, 4000).optional(),
  environment: EnvironmentSchema.optional(),
  solution_revision: RevisionSchema.optional(),
});
export type ReportOutcome = z.infer<typeof ReportOutcomeSchema>;
