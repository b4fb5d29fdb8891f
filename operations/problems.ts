/** create_problem and edit_problem, inside the commit transaction. */
import type { CommitJob } from '../core/queue-contract.ts';
import { newId } from '../core/ids.ts';
import { CreateProblemSchema, EditProblemSchema } from '../core/schemas/knowledge.ts';
import { recordLinks } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import {
  findProblem,
  findProblemRevision,
  insertProblemRevision,
  setProblemRevision,
  type ProblemContent,
} from '../db/queries/problems.ts';
import { insertProblemsUnlessDuplicate, type NewProblem } from '../db/queries/duplicates.ts';
import { duplicateProblem, problemDuplicateKey } from './duplicates.ts';
import {
  agentRef,
  notFound,
  notOwner,
  sameContent,
  staleRevision,
  unchanged,
  type BatchWrite,
  type HandlerResult,
} from './handler-result.ts';
import { refreshTrust } from './trust.ts';

/** The content fields of a stored revision, in ProblemContent's order. */
const contentOf = (r: ProblemContent): ProblemContent => ({
  title: r.title,
  body: r.body,
  product: r.product,
  error_literal: r.error_literal,
  environment: r.environment,
  tags: r.tags,
});

export function createProblem(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  return createProblems(tx, [{ job, at }]).then((results) => results[0]!);
}

/**
 * Several create_problem writes, each as `createProblem` alone in turn, in
 * as few statements as their duplicate keys allow: a write whose key an
 * earlier one of the same statement holds starts the next statement, so
 * that it meets the earlier problem as it would alone.
 */
export async function createProblems(tx: Queryable, writes: readonly BatchWrite[]): Promise<HandlerResult[]> {
  const made = writes.map(({ job, at }) => {
    const body = CreateProblemSchema.parse(job.body);
    const content: ProblemContent = {
      title: body.title,
      body: body.body,
      product: body.product,
      error_literal: body.error_literal ?? null,
      environment: body.environment ?? {},
      tags: body.tags ?? [],
    };
    const problem: NewProblem = {
      id: newId('problem', at.getTime()),
      authorId: job.identityId,
      at,
      content,
      duplicate: problemDuplicateKey(body.product, content.error_literal),
    };
    return problem;
  });
  const existing: (string | null)[] = [];
  for (let start = 0; start < made.length; ) {
    const keys = new Set<string>();
    let end = start;
    for (; end < made.length; end++) {
      const key = made[end]!.duplicate?.lockKey;
      if (key === undefined) continue;
      if (keys.has(key)) break;
      keys.add(key);
    }
    existing.push(...(await insertProblemsUnlessDuplicate(tx, made.slice(start, end))));
    start = end;
  }
  return made.map(({ id, content }, i): HandlerResult => {
    const found = existing[i];
    if (found) return duplicateProblem(found, content.product);
    const ref = { type: 'problem', id } as const;
    return {
      ok: true,
      resource: { type: 'problem', id, revision: 1, links: recordLinks(ref) },
      change: {
        resourceType: 'problem',
        resourceId: id,
        revision: 1,
        affects: [ref, agentRef(writes[i]!.job.identityId)],
      },
    };
  });
}

export async function editProblem(tx: Queryable, job: CommitJob, at: Date): Promise<HandlerResult> {
  const { base_revision, ...fields } = EditProblemSchema.parse(job.body);
  const id = job.targetId ?? '';
  const head = await findProblem(tx, id, true);
  if (!head) return notFound('problem', id);
  if (head.author_id !== job.identityId) return notOwner('problem');
  if (base_revision !== head.current_revision) return staleRevision(base_revision, head.current_revision);
  const prior = (await findProblemRevision(tx, id, head.current_revision))!;
  // Fields the edit omits keep their prior values (docs/api.md, Writes).
  const content: ProblemContent = {
    title: fields.title ?? prior.title,
    body: fields.body ?? prior.body,
    product: fields.product ?? prior.product,
    error_literal: fields.error_literal ?? prior.error_literal,
    environment: fields.environment ?? prior.environment,
    tags: fields.tags ?? prior.tags,
  };
  if (sameContent(content, contentOf(prior))) return unchanged({ type: 'problem', id }, head.current_revision);
  const revision = head.current_revision + 1;
  await insertProblemRevision(tx, { problemId: id, revision, authorId: job.identityId, at, content });
  await setProblemRevision(tx, id, revision, at);
  const ref = { type: 'problem', id } as const;
  return {
    ok: true,
    resource: { type: 'problem', id, revision, links: recordLinks(ref) },
    change: { resourceType: 'problem', resourceId: id, revision, affects: [ref, agentRef(job.identityId)] },
    // A new revision starts clean: its dispute counts only feedback filed against it.
    followUps: await refreshTrust(tx, ref, at),
  };
}
