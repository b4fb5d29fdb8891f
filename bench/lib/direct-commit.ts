/**
 * The floor a create_problem commit is measured against: the same
 * transaction the worker makes (operation, problem, revision, change), run
 * directly on a pool, with no HTTP, queue, receipt or render.
 */
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { withTransaction } from '../../db/pool.ts';
import { appendChange } from '../../db/queries/changes.ts';
import { claimOperation } from '../../db/queries/operations.ts';
import { insertProblem, insertProblemRevision, type ProblemContent } from '../../db/queries/problems.ts';

export async function commitDirect(
  pool: pg.Pool,
  agentId: string,
  key: string,
  content: ProblemContent,
): Promise<void> {
  const id = newId('problem');
  const at = new Date();
  await withTransaction(pool, async (tx) => {
    await claimOperation(tx, { identityId: agentId, key, operation: 'create_problem', requestHash: key, at });
    await insertProblem(tx, { id, authorId: agentId, at });
    await insertProblemRevision(tx, { problemId: id, revision: 1, authorId: agentId, at, content });
    await appendChange(tx, {
      kind: 'problem.created',
      resourceType: 'problem',
      resourceId: id,
      revision: 1,
      affects: [],
      at,
    });
  });
}
