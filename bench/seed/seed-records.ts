/**
 * Seeds a database with realistic records in bulk: problems, solutions and
 * discussions (together `records`), plus the identities that wrote them and
 * outcome reports on the solutions. Each batch is one transaction of a few
 * multi-row INSERTs, so the search triggers (which only note what changed) run
 * once per table per batch; a batch is drafted while the previous two are written.
 */
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import type { Signal } from '../../core/schemas/fields.ts';
import { withTransaction } from '../../db/pool.ts';
import {
  insertRecordBatch,
  insertIdentityRows,
  type DiscussionRow,
  type OutcomeRow,
  type ProblemRevisionRow,
  type SolutionRevisionRow,
  type SolutionRow,
} from '../../db/queries/bulk-records.ts';
import { draftDiscussion, draftProblem, draftSolution } from './corpus.ts';
import { createRandom, type Random } from './random.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';

export interface SeedOptions {
  /** Problems, solutions and discussions together. */
  records: number;
  seed?: number;
  batchSize?: number;
  /** Called after each batch with the records written so far. */
  onProgress?: (written: number) => void;
  /** Build the search documents at the end (default true); the seed command times that step itself. */
  catchUp?: boolean;
}

export interface SeedSummary {
  identities: number;
  problems: number;
  solutions: number;
  discussions: number;
  outcomes: number;
  /** Some problem ids, for benchmarks that read records by id. */
  sampleProblemIds: string[];
}

/** The mix of a knowledge base: most records are problems and their solutions. */
const SHARE = { problems: 0.45, solutions: 0.4 } as const;
const SIGNALS: Signal[] = ['worked', 'worked', 'worked', 'partially_worked', 'did_not_work'];
const SPAN_MS = 2 * 365 * 24 * 3600 * 1000;
/** Batches written at once, each a transaction on its own connection. */
const WRITERS = 2;

function reports(r: Random, solutionId: string, identities: string[], at: Date): OutcomeRow[] {
  return Array.from({ length: r.pick([0, 0, 1, 1, 1, 2, 3]) }, (_, i) => {
    const when = new Date(at.getTime() + (i + 1) * 3600_000);
    return {
      id: newId('outcome', when.getTime()),
      solutionId,
      identityId: r.pick(identities),
      signal: r.pick(SIGNALS),
      at: when,
    };
  });
}

export async function seedRecords(pool: pg.Pool, options: SeedOptions): Promise<SeedSummary> {
  const r = createRandom(options.seed ?? 1);
  const batchSize = options.batchSize ?? 2000;
  const problemsTotal = Math.round(options.records * SHARE.problems);
  const solutionsTotal = Math.round(options.records * SHARE.solutions);
  const discussionsTotal = options.records - problemsTotal - solutionsTotal;
  const identities = Array.from({ length: Math.max(20, Math.ceil(options.records / 250)) }, () => newId('agent'));
  await insertIdentityRows(
    pool,
    identities.map((id, i) => ({ id, handle: `seed-${i}-${id.slice(-6)}` })),
  );

  const summary: SeedSummary = {
    identities: identities.length,
    problems: 0,
    solutions: 0,
    discussions: 0,
    outcomes: 0,
    sampleProblemIds: [],
  };
  const start = Date.now() - SPAN_MS;
  const batches = Math.max(1, Math.ceil(options.records / batchSize));
  // Each batch holds its share of every kind, so solutions attach to problems of the same batch.
  const share = (total: number, b: number) =>
    Math.floor((total * (b + 1)) / batches) - Math.floor((total * b) / batches);
  const writing: Promise<void>[] = [];
  for (let b = 0; b < batches; b++) {
    const at = (i: number, n: number) => new Date(start + Math.floor(((b + i / Math.max(1, n)) / batches) * SPAN_MS));
    const problems: ProblemRevisionRow[] = [];
    const templates: number[] = [];
    const nProblems = share(problemsTotal, b);
    for (let i = 0; i < nProblems; i++) {
      const when = at(i, nProblems);
      const draft = draftProblem(r);
      templates.push(draft.template);
      problems.push({ id: newId('problem', when.getTime()), authorId: r.pick(identities), at: when, ...draft });
    }
    const solutions: Array<SolutionRow & SolutionRevisionRow> = [];
    const outcomes: OutcomeRow[] = [];
    const nSolutions = problems.length ? share(solutionsTotal, b) : 0;
    for (let i = 0; i < nSolutions; i++) {
      const p = r.int(0, problems.length - 1);
      const when = new Date(problems[p]!.at.getTime() + r.int(1, 72) * 3600_000);
      const id = newId('solution', when.getTime());
      solutions.push({
        id,
        problemId: problems[p]!.id,
        authorId: r.pick(identities),
        at: when,
        ...draftSolution(r, templates[p]!),
      });
      outcomes.push(...reports(r, id, identities, when));
    }
    const discussions: DiscussionRow[] = [];
    const nDiscussions = share(discussionsTotal, b);
    for (let i = 0; i < nDiscussions; i++) {
      const when = at(i, nDiscussions);
      discussions.push({
        id: newId('discussion', when.getTime()),
        authorId: r.pick(identities),
        at: when,
        ...draftDiscussion(r),
      });
    }
    // Earlier batches' INSERTs run while this one is drafted, two at a time on two connections: one
    // session's INSERTs keep one core busy, and the triggers and indexes of a batch are most of it.
    if (writing.length >= WRITERS) await writing.shift();
    writing.push(
      withTransaction(pool, async (tx) => {
        await insertRecordBatch(tx, { problems, solutions, discussions, outcomes });
      }),
    );
    summary.problems += problems.length;
    summary.solutions += solutions.length;
    summary.discussions += discussions.length;
    summary.outcomes += outcomes.length;
    if (summary.sampleProblemIds.length < 1000)
      summary.sampleProblemIds.push(...problems.slice(0, 20).map((p) => p.id));
    options.onProgress?.(summary.problems + summary.solutions + summary.discussions);
  }
  await Promise.all(writing);
  // The search documents of every seeded record, as the worker's catch-up builds them.
  if (options.catchUp ?? true) await searchDocumentsCaughtUp(pool);
  return summary;
}
