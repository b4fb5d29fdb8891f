/**
 * The search evaluation: seeds the cases (test/database-search/eval-cases.ts,
 * written by us, and the public literals of eval-cases-public.ts and
 * eval-public/, each with the address it was posted at) as problems with a
 * solution, their near-duplicate distractors (hand-written ones and the
 * service twins of eval-distractors.ts) and a generated corpus as noise,
 * then sends every query through `runSearch` in mode auto and measures
 * recall@1, recall@7 and MRR, held-out and tuning apart. A query is
 * answered when its case's problem, or a solution of it, is among the first
 * k candidates; a substring query also when the record found holds the
 * whole fragment in its literal (a case, a distractor or a noise record),
 * since the fragment does not tell those records apart.
 */
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { runSearch, searchTerms } from '../../database-search/run-search.ts';
import { withoutLogPrefixes } from '../../database-search/log-prefix.ts';
import { redactText } from '../../core/redact-secrets.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { withTransaction } from '../../db/pool.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { createHash } from 'node:crypto';
import { SEARCH_Q_MAX_CHARS } from '../../core/schemas/search-params.ts';
import { EVAL_CASES, EVAL_DISTRACTORS } from '../../test/database-search/eval-cases.ts';
import { PUBLIC_CASES } from '../../test/database-search/eval-cases-public.ts';
import { machineVariants, substringOf } from './eval-variants.ts';
import { serviceTwins } from './eval-distractors.ts';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import {
  insertIdentityRows,
  insertOutcomeRows,
  insertProblemRevisionRows,
  insertProblemRows,
  insertSolutionRevisionRows,
  insertSolutionRows,
  type ProblemRevisionRow,
  type SolutionRevisionRow,
  type SolutionRow,
} from '../../db/queries/bulk-records.ts';
import { createRandom } from '../seed/random.ts';
import { seedRecords } from '../seed/seed-records.ts';

/** What an agent pastes: the literal itself, the same error from another machine, a cut-off fragment, or the symptom in words. */
export type EvalKind = 'exact' | 'machine' | 'substring' | 'symptom';
export const EVAL_KINDS: EvalKind[] = ['exact', 'machine', 'substring', 'symptom'];
export type EvalSplit = 'heldout' | 'tuning';
export const RECALL_DEPTH = 7;

export interface EvalQueryItem {
  caseId: string;
  split: EvalSplit;
  kind: EvalKind;
  q: string;
}

export interface Recall {
  queries: number;
  at1: number;
  at7: number;
  mrr: number;
}

export interface Miss {
  caseId: string;
  kind: EvalKind;
  q: string;
  /** Titles of what came first instead. */
  got: string[];
  /** The answer's place (1-based) among the first RECALL_DEPTH, or null when it is not among them. */
  rank: number | null;
  /** Of the query's full-text terms (as the search reads them), the most that one record of the answer holds. */
  shared: number;
  /** How many full-text terms the search read of the query. */
  terms: number;
}

export interface EvalReport {
  cases: number;
  /** Records that stand in the way: hand-written near misses and generated service twins. */
  distractors: number;
  /** Cases whose literal came from a public thread with its address. */
  publicCases: number;
  noiseRecords: number;
  /** Recall of mode=auto per split, per kind and over all queries. */
  recall: Record<EvalSplit, Record<EvalKind | 'all', Recall>>;
  /** Tuning queries mode=auto did not answer first. Held-out misses are counted, never listed. */
  misses: Miss[];
  latencyMs: { p50: number; p95: number };
}

/** Every case with a literal: the hand-written set and the public one. */
interface Case {
  id: string;
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
}
const ALL_CASES: Case[] = [...EVAL_CASES, ...PUBLIC_CASES];

/**
 * The held-out third, fixed by the case id alone: a case's queries are all
 * on one side, and adding cases never moves an existing one.
 */
export function splitOf(caseId: string): EvalSplit {
  return parseInt(createHash('md5').update(caseId).digest('hex').slice(0, 8), 16) % 3 === 0 ? 'heldout' : 'tuning';
}

/** A query as the API takes it: at most SEARCH_Q_MAX_CHARS, cut at a line end when one is near. */
export function clip(q: string): string {
  if (q.length <= SEARCH_Q_MAX_CHARS) return q;
  const cut = q.slice(0, SEARCH_Q_MAX_CHARS);
  const lineEnd = cut.lastIndexOf('\n');
  return lineEnd > SEARCH_Q_MAX_CHARS / 2 ? cut.slice(0, lineEnd) : cut;
}

/** Every query of the evaluation: for each case its literal, machine variants, substrings and symptom. */
export function evaluationQueries(): EvalQueryItem[] {
  const out: EvalQueryItem[] = [];
  const add = (c: Case, kind: EvalKind, q: string) =>
    out.push({ caseId: c.id, split: splitOf(c.id), kind, q: clip(q) });
  for (const c of ALL_CASES) {
    add(c, 'exact', c.literal);
    for (const variant of machineVariants(c.literal, c.id)) add(c, 'machine', variant);
    add(c, 'substring', substringOf(c.literal, c.id));
  }
  for (const c of EVAL_CASES) {
    for (const q of c.queries)
      add(c, q.kind === 'variant' ? 'machine' : q.kind === 'truncated' ? 'substring' : 'symptom', q.q);
  }
  for (const c of PUBLIC_CASES) add(c, 'symptom', c.symptom);
  return out;
}

/** What was seeded: each case's problem, and every seeded literal (cases, distractors and noise) with its problem, normalized. */
export interface EvalSeed {
  caseProblems: Map<string, string>;
  literals: Array<{ problemId: string; normalized: string }>;
  distractors: number;
}

/** Every record that stands in the way of the cases: the hand-written near misses and the service twins. */
export function evaluationDistractors(): Array<Omit<Case, 'id'>> {
  return [...EVAL_DISTRACTORS, ...serviceTwins(ALL_CASES)];
}

/** Seeds the cases, the distractors and `noise` generated records. */
export async function seedEvaluation(pool: pg.Pool, noise: number): Promise<EvalSeed> {
  const distractors = evaluationDistractors();
  const seed = await seedCases(pool, noise, ALL_CASES, distractors);
  return { ...seed, distractors: distractors.length };
}

/** A record the evaluation seeds as a problem with one solution: a case (with its id) or a distractor. */
export interface SeededRecord {
  id?: string;
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
}

/**
 * Seeds `cases` and `distractors` as problems with one solution each, and
 * `noise` generated records; returns each case's problem and every seeded
 * literal. Shared by every evaluation set, so they all meet the same corpus.
 */
export async function seedCases(
  pool: pg.Pool,
  noise: number,
  cases: SeededRecord[],
  distractors: SeededRecord[],
): Promise<EvalSeed> {
  if (noise > 0) await seedRecords(pool, { records: noise, seed: 7 });
  const r = createRandom(11);
  const authorId = newId('agent');
  const reporterId = newId('agent');
  const span = 2 * 365 * 24 * 3600 * 1000;
  const problems: ProblemRevisionRow[] = [];
  const solutions: Array<SolutionRow & SolutionRevisionRow> = [];
  const caseProblems = new Map<string, string>();
  const records: SeededRecord[] = [...cases, ...distractors.map(({ id: _id, ...rest }) => rest)];
  const literals: EvalSeed['literals'] = [];
  for (const record of records) {
    // Spread over the same two years as the noise, so recency favours no one.
    const at = new Date(Date.now() - r.int(0, span));
    const problemId = newId('problem', at.getTime());
    if (record.id) caseProblems.set(record.id, problemId);
    literals.push({ problemId, normalized: normalizeLiteral(record.literal) });
    problems.push({
      id: problemId,
      authorId,
      at,
      title: record.title,
      body: record.body,
      product: record.product,
      errorLiteral: record.literal,
      tags: [record.ecosystem],
    });
    const solutionAt = new Date(at.getTime() + 3600_000);
    solutions.push({
      id: newId('solution', solutionAt.getTime()),
      problemId,
      authorId,
      at: solutionAt,
      body: record.solution,
      applicability: null,
      limitations: null,
    });
  }
  await withTransaction(pool, async (tx) => {
    await insertIdentityRows(tx, [
      { id: authorId, handle: 'eval-author' },
      { id: reporterId, handle: 'eval-reporter' },
    ]);
    await insertProblemRows(tx, problems);
    await insertProblemRevisionRows(tx, problems);
    await insertSolutionRows(tx, solutions);
    await insertSolutionRevisionRows(tx, solutions);
    // Every solution worked once, so signals favour no one either.
    await insertOutcomeRows(
      tx,
      solutions.map((s) => ({
        id: newId('outcome'),
        solutionId: s.id,
        identityId: reporterId,
        signal: 'worked',
        at: s.at,
      })),
    );
  });
  // What the worker's catch-up does after the load: the documents of every record (db/migrations/000021.sql).
  await searchDocumentsCaughtUp(pool);
  // A live database has planner statistics (autovacuum gathers them within a minute of a bulk load), and the
  // second ranking stage reads its term rarity from them: gathered now, so every query sees the same ones.
  await pool.query('ANALYZE search_documents');
  // And the worker's compaction would have built the champion lists (db/migrations/000016.sql) from them.
  await pool.query('SELECT ak_search_build_champions()');
  await pool.query('ANALYZE search_champions, search_champion_terms');
  // Every seeded literal, the generated noise's too: a fragment one of them also holds does not identify a case.
  const all = await pool.query<{ id: string; literal: string }>(
    `SELECT p.id, r.error_literal AS literal FROM problems p
       JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision
      WHERE r.error_literal IS NOT NULL`,
  );
  const seeded = new Set(literals.map((l) => l.problemId));
  for (const row of all.rows)
    if (!seeded.has(row.id)) literals.push({ problemId: row.id, normalized: normalizeLiteral(row.literal) });
  return { caseProblems, literals, distractors: distractors.length };
}

/** The problem a document belongs to (itself for a problem). */
async function familiesOf(pool: pg.Pool, ids: string[]): Promise<Map<string, string>> {
  const r = await pool.query<{ id: string; family: string }>(
    'SELECT id, family FROM search_documents WHERE id = ANY($1::text[])',
    [ids],
  );
  return new Map(r.rows.map((row) => [row.id, row.family]));
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0;
}

/**
 * The problems that answer a query: its case's, and for a substring query
 * every seeded record whose literal holds the whole fragment (the fragment
 * does not tell them apart).
 */
function answersOf(query: EvalQueryItem, seed: EvalSeed): Set<string> {
  const answers = new Set([seed.caseProblems.get(query.caseId)!]);
  if (query.kind === 'substring') {
    const fragment = normalizeLiteral(query.q);
    if (fragment !== '')
      for (const literal of seed.literals) if (literal.normalized.includes(fragment)) answers.add(literal.problemId);
  }
  return answers;
}

/**
 * Sends every evaluation query through `runSearch` in mode auto and
 * measures recall@1, recall@7 and MRR (over the first 7). `concurrency`
 * queries run at once (1 for the latency figures of `npm run eval:search`).
 */
export async function evaluateSearch(
  pool: pg.Pool,
  seed: EvalSeed,
  noiseRecords = 0,
  concurrency = 1,
): Promise<EvalReport> {
  const measured = await measureQueries(pool, seed, evaluationQueries(), concurrency);
  return {
    cases: ALL_CASES.length,
    publicCases: PUBLIC_CASES.length,
    distractors: seed.distractors,
    noiseRecords,
    ...measured,
  };
}

/** What `measureQueries` finds: recall per split and kind, the tuning misses, and the latency. */
export type Measured = Pick<EvalReport, 'recall' | 'misses' | 'latencyMs'>;

/**
 * Sends `queries` through `runSearch` in mode auto, `concurrency` at once,
 * and measures recall@1, recall@7 and MRR (over the first 7) per split and
 * kind. Only tuning misses are kept.
 */
export async function measureQueries(
  pool: pg.Pool,
  seed: EvalSeed,
  queries: EvalQueryItem[],
  concurrency = 1,
): Promise<Measured> {
  const empty = (): Recall => ({ queries: 0, at1: 0, at7: 0, mrr: 0 });
  const table = () =>
    Object.fromEntries([...EVAL_KINDS, 'all'].map((k) => [k, empty()])) as Record<EvalKind | 'all', Recall>;
  const recall: EvalReport['recall'] = { heldout: table(), tuning: table() };
  const misses: Miss[] = [];
  const times: number[] = [];
  const ranks: number[] = new Array(queries.length);
  const titles: string[][] = new Array(queries.length);
  let nextIndex = 0;
  const work = async () => {
    for (let i = nextIndex++; i < queries.length; i = nextIndex++) {
      const query = queries[i]!;
      const answers = answersOf(query, seed);
      const started = performance.now();
      const result = await runSearch(
        pool,
        SearchParamsSchema.parse({ q: query.q, mode: 'auto', limit: String(RECALL_DEPTH) }),
      );
      times.push(performance.now() - started);
      const families = await familiesOf(
        pool,
        result.items.map((item) => item.id),
      );
      ranks[i] = result.items.findIndex((item) => answers.has(families.get(item.id)!));
      titles[i] = result.items.slice(0, 3).map((item) => item.title);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, work));
  queries.forEach((query, i) => {
    const rank = ranks[i]!;
    for (const cell of [recall[query.split][query.kind], recall[query.split].all]) {
      cell.queries++;
      if (rank === 0) cell.at1++;
      if (rank >= 0) {
        cell.at7++;
        cell.mrr += 1 / (rank + 1);
      }
    }
    // Held-out misses stay unseen: looking at them would make the held-out part a tuning set.
    if (query.split === 'tuning' && rank !== 0)
      misses.push({
        caseId: query.caseId,
        kind: query.kind,
        q: query.q,
        got: titles[i]!,
        rank: rank >= 0 ? rank + 1 : null,
        shared: 0,
        terms: 0,
      });
  });
  // What a tuning miss shares with its answer: a query none of whose rarer terms the answer's records hold
  // is out of reach of any ranking by the words it shares.
  for (const miss of misses) {
    const terms = await searchTerms(pool, withoutLogPrefixes(normalizeLiteral(redactText(clip(miss.q)).value)));
    miss.terms = terms.length;
    const r = await pool.query<{ shared: number | null }>(
      `SELECT max((SELECT count(*) FROM unnest($2::text[]) AS t(q) WHERE d.tsv @@ t.q::tsquery))::int AS shared
         FROM search_documents d WHERE d.family = $1`,
      [seed.caseProblems.get(miss.caseId)!, terms],
    );
    miss.shared = r.rows[0]?.shared ?? 0;
  }
  for (const byKind of Object.values(recall)) {
    for (const cell of Object.values(byKind)) {
      if (!cell.queries) continue;
      cell.at1 /= cell.queries;
      cell.at7 /= cell.queries;
      cell.mrr /= cell.queries;
    }
  }
  times.sort((a, b) => a - b);
  return { recall, misses, latencyMs: { p50: percentile(times, 0.5), p95: percentile(times, 0.95) } };
}

/** The report as plain text: held-out and tuning, recall@1 / recall@7 / MRR per kind. */
export function formatEvalReport(report: EvalReport, splits: readonly EvalSplit[] = EVAL_SPLITS): string {
  return [
    `search evaluation: ${report.cases} cases (${report.publicCases} public literals with their address), ${report.distractors} distractors, ${report.noiseRecords} noise records, ${report.recall.heldout.all.queries + report.recall.tuning.all.queries} queries, mode=auto`,
    formatMeasured(report, splits),
  ].join('\n');
}

export const EVAL_SPLITS: readonly EvalSplit[] = ['heldout', 'tuning'];

/**
 * Recall per split and kind as a table, the latency, and the tuning misses (held-out misses are never
 * listed). `splits`: the parts whose rows are printed (tuning alone while the ranking is being tuned).
 */
export function formatMeasured(report: Measured, splits: readonly EvalSplit[] = EVAL_SPLITS): string {
  const f = (x: number) => x.toFixed(3);
  const columns: Array<EvalKind | 'all'> = [...EVAL_KINDS, 'all'];
  const lines = [
    `${'split'.padEnd(9)}${'kind'.padEnd(11)}${'queries'.padStart(8)}${'recall@1'.padStart(10)}${`recall@${RECALL_DEPTH}`.padStart(10)}${'MRR'.padStart(8)}`,
  ];
  for (const split of splits) {
    for (const kind of columns) {
      const cell = report.recall[split][kind];
      lines.push(
        `${split.padEnd(9)}${kind.padEnd(11)}${String(cell.queries).padStart(8)}${f(cell.at1).padStart(10)}${f(cell.at7).padStart(10)}${f(cell.mrr).padStart(8)}`,
      );
    }
  }
  lines.push(
    `runSearch latency over all queries: p50 ${report.latencyMs.p50.toFixed(1)} ms, p95 ${report.latencyMs.p95.toFixed(1)} ms`,
  );
  if (report.misses.length) {
    lines.push(`tuning queries not answered first (held-out misses are never listed):`);
    for (const miss of report.misses)
      lines.push(
        `  ${miss.caseId} [${miss.kind}, ${miss.rank === null ? `not in ${RECALL_DEPTH}` : `#${miss.rank}`}, shares ${miss.shared}/${miss.terms} terms] ${JSON.stringify(miss.q.slice(0, 80))} -> ${JSON.stringify(miss.got)}`,
      );
    lines.push(`tuning misses by the most query terms one record of the answer holds (0 / 1 / 2 / 3 or more):`);
    for (const kind of EVAL_KINDS) {
      const of = report.misses.filter((miss) => miss.kind === kind);
      if (of.length === 0) continue;
      const count = (test: (n: number) => boolean) => of.filter((miss) => test(miss.shared)).length;
      lines.push(
        `  ${kind.padEnd(10)} ${of.length} misses: ${count((n) => n === 0)} / ${count((n) => n === 1)} / ${count((n) => n === 2)} / ${count((n) => n >= 3)}`,
      );
    }
  }
  return lines.join('\n');
}
