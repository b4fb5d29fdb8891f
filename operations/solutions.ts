/** create_solution, edit_solution and report_outcome, inside the commit transaction. */
import { errorInfo } from '../core/errors.ts';
import type { CommitJob } from '../core/queue-contract.ts';
import { newId } from '../core/ids.ts';
import { CreateSolutionSchema, EditSolutionSchema, ReportOutcomeSchema } from '../core/schemas/knowledge.ts';
import { recordLinks, type RecordRef } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import { insertOutcome } from '../db/queries/outcomes.ts';
import { findProblem } from '../db/queries/problems.ts';
import {
  findSolution,
  findSolutionRevision,
  insertSolution,
  insertSolutionRevision,
  setSolutionRevision,
  type SolutionContent,
} from '../db/queries/solutions.ts';
import { refuseDuplicateSolution } from './duplicates.ts';
import {
  agentRef,
  fail,
  notFound,
  notOwner,
  sameContent,
  staleRevision,
  unchanged,
  type HandlerResult,
} from './handler-result.ts';
import { refreshTrust } from './trust.ts';

/** A solution's projections and its problem's (which lists it) change together. */
function solutionRefs(solutionId: string, problemId: string): RecordRef[] {
  return [
    { type: 'solution', id: solutionId },
    { type: 'problem', id: problemId },
  ];
}

export async function createSolution(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = CreateSolutionSchema.parse(job.body);
  const problem = await findProblem(tx, body.problem_id);
  if (!problem) return notFound('problem', body.problem_id, 'problem_id');
  const refused = await refuseDuplicateSolution(tx, problem.id, body.body);
  if (refused) return refused;
  const id = newId('solution', at.getTime());
  const content: SolutionContent = {
    body: body.body,
    applicability: body.applicability ?? null,
    limitations: body.limitations ?? null,
  };
  await insertSolution(tx, { id, problemId: problem.id, authorId: job.identityId, at });
  await insertSolutionRevision(tx, { solutionId: id, revision: 1, authorId: job.identityId, at, content });
  return {
    ok: true,
    resource: { type: 'solution', id, revision: 1, links: recordLinks({ type: 'solution', id }) },
    change: {
      resourceType: 'solution',
      resourceId: id,
      revision: 1,
      affects: [...solutionRefs(id, problem.id), agentRef(job.identityId)],
    },
  };
}

export async function editSolution(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const { base_revision, ...fields } = EditSolutionSchema.parse(job.body);
  const id = job.targetId ?? '';
  const head = await findSolution(tx, id, true);
  if (!head) return notFound('solution', id);
  if (head.author_id !== job.identityId) return notOwner('solution');
  if (base_revision !== head.current_revision) return staleRevision(base_revision, head.current_revision);
  const prior = (await findSolutionRevision(tx, id, head.current_revision))!;
  const content: SolutionContent = {
    body: fields.body ?? prior.body,
    applicability: fields.applicability ?? prior.applicability,
    limitations: fields.limitations ?? prior.limitations,
  };
  if (sameContent(content, { body: prior.body, applicability: prior.applicability, limitations: prior.limitations })) {
    return unchanged({ type: 'solution', id }, head.current_revision);
  }
  const revision = head.current_revision + 1;
  await insertSolutionRevision(tx, { solutionId: id, revision, authorId: job.identityId, at, content });
  await setSolutionRevision(tx, id, revision, at);
  // A new revision starts clean: its trust counts only reports on it.
  const followUps = await refreshTrust(tx, { type: 'solution', id }, at);
  return {
    ok: true,
    resource: { type: 'solution', id, revision, links: recordLinks({ type: 'solution', id }) },
    change: { resourceType: 'solution', resourceId: id, revision, affects: solutionRefs(id, head.problem_id) },
    followUps,
  };
}

export async function reportOutcome(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const body = ReportOutcomeSchema.parse(job.body);
  const solutionId = job.targetId ?? '';
  const solution = await findSolution(tx, solutionId);
  if (!solution) return notFound('solution', solutionId);
  const revision = body.solution_revision ?? solution.current_revision;
  if (revision > solution.current_revision) {
    return fail(
      errorInfo(
        'future_revision',
        { field: 'solution_revision', revision, current: solution.current_revision },
        {
          field: 'solution_revision',
        },
      ),
    );
  }
  const id = newId('outcome', at.getTime());
  await insertOutcome(tx, {
    id,
    solutionId,
    solutionRevision: revision,
    identityId: job.identityId,
    signal: body.signal,
    note: body.note ?? null,
    environment: body.environment ?? {},
    at,
  });
  const followUps = await refreshTrust(tx, { type: 'solution', id: solutionId }, at);
  return {
    ok: true,
    // An outcome has no page of its own: it is shown on its solution.
    resource: { type: 'outcome', id, revision: null, links: recordLinks({ type: 'solution', id: solutionId }) },
    change: {
      resourceType: 'outcome',
      resourceId: id,
      revision: null,
      affects: solutionRefs(solutionId, solution.problem_id),
    },
    followUps,
  };
}
