/**
 * Records for benches: the request body an agent sends, and the same rows
 * inserted directly (the baseline for writes; also a fast way to seed many
 * records for a bench that needs them).
 */
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { withTransaction } from '../../db/pool.ts';
import { insertProblem, insertProblemRevision, type ProblemContent } from '../../db/queries/problems.ts';

/** Digits spelled as letters, so the text stays distinct after normalization. */
const asLetters = (text: string) => text.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!).replace(/-/g, ' ');

/** A create_problem body of a realistic size (~1 KB), unique per `n`. */
export function problemContent(run: string, n: number): ProblemContent {
  return {
    title: `Bench ${run} #${n}: build fails with ENOSPC while watching files`,
    body:
      `The watcher runs out of inotify handles while building (${run}/${n}).\n\n` +
      'Steps: start the dev server in a large monorepo; after a few seconds the build stops with the error below. '.repeat(
        6,
      ),
    product: 'webpack',
    // Unique per write in words (normalization folds numbers and hex ids), or
    // every write after the first would be refused as a duplicate problem.
    error_literal: `Error: ENOSPC: System limit for number of file watchers reached in ${asLetters(`${run}-${n}`)}`,
    environment: { os: 'linux', node: '24' },
    tags: ['build', 'watcher'],
  };
}

/** The rows a committed create_problem adds for the problem itself, in one transaction. */
export async function insertProblemDirect(pool: pg.Pool, authorId: string, content: ProblemContent): Promise<string> {
  const id = newId('problem');
  const at = new Date();
  await withTransaction(pool, async (tx) => {
    await insertProblem(tx, { id, authorId, at });
    await insertProblemRevision(tx, { problemId: id, revision: 1, authorId, at, content });
  });
  return id;
}
