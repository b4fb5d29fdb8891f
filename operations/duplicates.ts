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
import { findSolutionByBody, lockAndFindProblemByLiteral, lockDuplicateKey } from '../db/queries/duplicates.ts';
import { fail, type HandlerResult } from './handler-result.ts';

/** ASCII lower case and no surrounding space, as `lockAndFindProblemByLiteral` compares products. */
function productKey(product: string): string {
  return product.replace(/^ +| +$/g, '').replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

const existing = (ref: RecordRef) => ({ type: ref.type, id: ref.id, links: recordLinks(ref) });

/**
 * Refuses a new problem whose normalized error literal and product equal an
 * existing problem's; null when it may be created. A problem without a
 * literal (or one that normalizes to nothing) is never a duplicate: its
 * title and body alone do not identify an error.
 */
export async function refuseDuplicateProblem(
  tx: Queryable,
  product: string,
  literal: string | null,
): Promise<HandlerResult | null> {
  const normalized = normalizeLiteral(literal ?? '');
  if (normalized === '') return null;
  const literalKey = keyHash(normalized);
  const productK = productKey(product);
  const id = await lockAndFindProblemByLiteral(tx, `problem\n${productK}\n${literalKey}`, literalKey, productK);
  if (!id) return null;
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
