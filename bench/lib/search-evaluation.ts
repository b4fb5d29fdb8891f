/**
 * The search evaluation: seeds the cases of test/search/eval-cases.ts (each
 * a problem with a solution), their hand-written near misses and a generated
 * corpus as noise, then sends every query in every mode through `runSearch`
 * and measures recall@1 and recall@7. A query is answered when its case's
 * problem, or a solution of it, is among the first k candidates.
 */
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { runSearch } from '../../core/search/run-search.ts';
import { SEARCH_MODES, SearchParamsSchema, type SearchMode } from '../../core/schemas/search-params.ts';
import { withTransaction } from '../../db/pool.ts';
import { EVAL_CASES, EVAL_DISTRACTORS, type EvalCase, type QueryKind } from '../../test/search/eval-cases.ts';
import {
  insertIdentityRows, insertOutcomeRows, insertProblemRevisionRows, insertProblemRows, insertSolutionRevisionRows,
  insertSolutionRows, type ProblemRevisionRow, type SolutionRevisionRow, type SolutionRow,
} from '../seed/bulk-insert.ts';
import { createRandom } from '../seed/random.ts';
import { seedRecords } from '../seed/seed-records.ts';

export const QUERY_KINDS: QueryKind[] = ['variant', 'truncated', 'paraphrase'];
export const RECALL_DEPTH = 7;

export interface Recall {
  queries: number;
  at1: number;
  at7: number;
}

export interface Miss {
  caseId: string;
  kind: QueryKind;
  q: string;
  /** Titles of what came first instead. */
  got: string[];
}

export interface EvalReport {
  cases: number;
  noiseRecords: number;
  /** Recall per requested mode, per query kind and over all queries. */
  recall: Record<SearchMode, Record<QueryKind | 'all', Recall>>;
  /** Queries mode=auto did not answer within the first 7. */
  misses: Miss[];
}

/** Seeds the cases, the near misses and `noise` generated records; returns each case's problem id. */
export async function seedEvaluation(pool: pg.Pool, noise: number): Promise<Map<string, string>> {
  if (noise > 0) await seedRecords(pool, { records: noise, seed: 7 });
  const r = createRandom(11);
  const authorId = newId('agent');
  const reporterId = newId('agent');
  const span = 2 * 365 * 24 * 3600 * 1000;
  const problems: ProblemRevisionRow[] = [];
  const solutions: Array<SolutionRow & SolutionRevisionRow> = [];
  const caseProblems = new Map<string, string>();
  const records: Array<Omit<EvalCase, 'id' | 'queries'> & { id?: string }> = [...EVAL_CASES, ...EVAL_DISTRACTORS];
  for (const record of records) {
    // Spread over the same two years as the noise, so recency favours no one.
    const at = new Date(Date.now() - r.int(0, span));
    const problemId = newId('problem', at.getTime());
    if (record.id) caseProblems.set(record.id, problemId);
    problems.push({ id: problemId, authorId, at, title: record.title, body: record.body, product: record.product, errorLiteral: record.literal, tags: [record.ecosystem] });
    const solutionAt = new Date(at.getTime() + 3600_000);
    solutions.push({ id: newId('solution', solutionAt.getTime()), problemId, authorId, at: solutionAt, body: record.solution, applicability: null, limitations: null });
  }
  await withTransaction(pool, async (tx) => {
    await insertIdentityRows(tx, [{ id: authorId, handle: 'eval-author' }, { id: reporterId, handle: 'eval-reporter' }]);
    await insertProblemRows(tx, problems);
    await insertProblemRevisionRows(tx, problems);
    await insertSolutionRows(tx, solutions);
    await insertSolutionRevisionRows(tx, solutions);
    // Every solution worked once, so signals favour no one either.
    await insertOutcomeRows(tx, solutions.map((s) => ({ id: newId('outcome'), solutionId: s.id, identityId: reporterId, signal: 'worked', at: s.at })));
  });
  return caseProblems;
}

/** The problem a document belongs to (itself for a problem). */
async function familiesOf(pool: pg.Pool, ids: string[]): Promise<Map<string, string>> {
  const r = await pool.query<{ id: string; family: string }>('SELECT id, family FROM search_documents WHERE id = ANY($1::text[])', [ids]);
  return new Map(r.rows.map((row) => [row.id, row.family]));
}

export async function evaluateSearch(pool: pg.Pool, caseProblems: Map<string, string>, noiseRecords = 0): Promise<EvalReport> {
  const empty = (): Recall => ({ queries: 0, at1: 0, at7: 0 });
  const recall = Object.fromEntries(SEARCH_MODES.map((mode) => [mode, {
    variant: empty(), truncated: empty(), paraphrase: empty(), all: empty(),
  }])) as EvalReport['recall'];
  const misses: Miss[] = [];
  for (const mode of SEARCH_MODES) {
    for (const evalCase of EVAL_CASES) {
      const target = caseProblems.get(evalCase.id)!;
      for (const query of evalCase.queries) {
        const result = await runSearch(pool, SearchParamsSchema.parse({ q: query.q, mode, limit: String(RECALL_DEPTH) }));
        const families = await familiesOf(pool, result.items.map((item) => item.id));
        const rank = result.items.findIndex((item) => families.get(item.id) === target);
        for (const cell of [recall[mode][query.kind], recall[mode].all]) {
          cell.queries++;
          if (rank === 0) cell.at1++;
          if (rank >= 0) cell.at7++;
        }
        if (mode === 'auto' && rank < 0) {
          misses.push({ caseId: evalCase.id, kind: query.kind, q: query.q, got: result.items.slice(0, 3).map((item) => item.title) });
        }
      }
    }
  }
  for (const byKind of Object.values(recall)) {
    for (const cell of Object.values(byKind)) {
      cell.at1 = cell.queries ? cell.at1 / cell.queries : 0;
      cell.at7 = cell.queries ? cell.at7 / cell.queries : 0;
    }
  }
  return { cases: EVAL_CASES.length, noiseRecords, recall, misses };
}

/** The report as a plain-text table: one row per mode, recall@1 / recall@7 per query kind. */
export function formatEvalReport(report: EvalReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
  const columns: Array<QueryKind | 'all'> = [...QUERY_KINDS, 'all'];
  const lines = [
    `search evaluation: ${report.cases} cases, ${report.recall.auto.all.queries} queries, ${report.noiseRecords} noise records`,
    `recall@1 / recall@${RECALL_DEPTH}`,
    `${'mode'.padEnd(10)}${columns.map((c) => `${c} (${report.recall.auto[c].queries})`.padStart(18)).join('')}`,
    ...SEARCH_MODES.map((mode) => `${mode.padEnd(10)}${columns.map((c) => {
      const cell = report.recall[mode][c];
      return `${pct(cell.at1)} / ${pct(cell.at7)}`.padStart(18);
    }).join('')}`),
    `overall (mode=auto, all queries): recall@1 ${pct(report.recall.auto.all.at1).trim()}, recall@${RECALL_DEPTH} ${pct(report.recall.auto.all.at7).trim()}`,
  ];
  if (report.misses.length) {
    lines.push(`misses of mode=auto within ${RECALL_DEPTH}:`);
    for (const miss of report.misses) lines.push(`  ${miss.caseId} [${miss.kind}] ${JSON.stringify(miss.q.slice(0, 80))} -> ${JSON.stringify(miss.got)}`);
  }
  return lines.join('\n');
}
