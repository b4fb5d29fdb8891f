/**
 * Duplicates refused at write time (docs/api.md, Decisions): the
 * same error posted again from another machine, or the same solution posted
 * twice to one problem, is 409 `duplicate_contribution` naming the record
 * the client should add to instead. "The same" is decided on normalized text
 * (database-search/normalize.ts), so paths, ports, ids and times do not make a
 * copy look new.
 */
import { errorInfo } from '../core/errors.ts';
import { keyHash, normalizeLiteral } from '../database-search/normalize.ts';
import { recordLinks, type RecordRef } from '../core/types.ts';
import type { Queryable } from '../db/pool.ts';
import { findSolutionByBody, lockDuplicateKey, type ProblemDuplicateKey } from '../db/queries/duplicates.ts';
import { fail, type HandlerResult } from './handler-result.ts';

/** ASCII lower case and no surrounding space, as the duplicate look-up compares products. */
function productKey(product: string): string {
  return product.replace(/^ +| +$/g, '').replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

const existing = (ref: RecordRef) => ({ type: ref.type, id: ref.id, links: recordLinks(ref) });

/**
 * What identifies a new problem's duplicates: an existing problem whose
 * normalized error literal and product equal its own. Null when it can have
 * none: a problem without a literal (or one that normalizes to nothing) is
 * never a duplicate, as its title and body alone do not identify an error.
 * The look-up runs with the problem's insert (`insertProblemsUnlessDuplicate`).
 */
export function problemDuplicateKey(product: string, literal: string | null): ProblemDuplicateKey | null {
  const normalized = normalizeLiteral(literal ?? '');
  if (normalized === '') return null;
  const literalKey = keyHash(normalized);
  const productK = productKey(product);
  return { lockKey: `problem\n${productK}\n${literalKey}`, literalKey, product: productK };
}

/** The refusal of a new problem that duplicates problem `id`. */
export function duplicateProblem(id: string, product: string): HandlerResult {
  return fail(
    errorInfo(
      'duplicate_problem',
      { id, product },
      { field: 'error_literal', existing: existing({ type: 'problem', id }) },
    ),
  );
}

/** Refuses a new solution whose normalized body equals another solution's on the same problem; null when it may be created. */
export async function refuseDuplicateSolution(
  tx: Queryable,
  problemId: string,
  body: string,
): Promise<HandlerResult | null> {
  const bodyKey = keyHash(normalizeLiteral(body));
  await lockDuplicateKey(tx, `solution\n${problemId}\n${bodyKey}`);
  const id = await findSolutionByBody(tx, problemId, bodyKey);
  if (!id) return null;
  return fail(
    errorInfo('duplicate_solution', { id, problemId }, { field: 'body', existing: existing({ type: 'solution', id }) }),
  );
}
