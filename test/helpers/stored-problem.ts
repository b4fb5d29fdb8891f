/**
 * A problem written straight into the database as its first revision, for
 * tests of what reads stored records (search above all) that need no API,
 * worker or receipt in between. Search documents are not built here: the
 * caller catches them up once, after its last insert.
 */
import { newId } from '../../core/ids.ts';
import type { Queryable } from '../../db/pool.ts';
import { insertProblem, insertProblemRevision, type ProblemContent } from '../../db/queries/problems.ts';

/** Stores a problem by `authorId` with `content` (no environment or tags unless given) and returns its id. */
export async function insertStoredProblem(
  db: Queryable,
  authorId: string,
  content: Omit<ProblemContent, 'environment' | 'tags'> & Partial<Pick<ProblemContent, 'environment' | 'tags'>>,
): Promise<string> {
  const id = newId('problem');
  const at = new Date();
  await insertProblem(db, { id, authorId, at });
  await insertProblemRevision(db, {
    problemId: id,
    revision: 1,
    authorId,
    at,
    content: { environment: {}, tags: [], ...content },
  });
  return id;
}
