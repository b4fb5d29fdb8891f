/**
 * Search quality, measured: the evaluation set (eval-cases.ts and the
 * public literals of eval-cases-public.ts and eval-public/, with generated
 * machine variants and substrings) among near-duplicate distractors and
 * 1,000 generated records. `npm run eval:search` prints the same measures
 * with more noise, held-out and tuning apart (docs/search.md).
 *
 * Thresholds sit a few cases below what is measured, so a tie broken the
 * other way does not fail the suite, while a broken piece does: without
 * normalization the variants fall far below 90% (most differ in paths,
 * ports or ids), without the trigram path the truncated queries do, and
 * without full text the paraphrases find nothing at all.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { SEARCH_Q_MAX_CHARS } from '../../core/schemas/search-params.ts';
import { createPool } from '../../db/pool.ts';
import {
  EVAL_KINDS,
  evaluateSearch,
  evaluationQueries,
  formatEvalReport,
  seedEvaluation,
  splitOf,
  type EvalReport,
} from '../../bench/lib/search-evaluation.ts';
import { machineVariants } from '../../bench/lib/eval-variants.ts';
import { normalizeLiteral } from '../../database-search/normalize.ts';
import { signatureOf } from '../../database-search/ranking.ts';
import { PUBLIC_CASES } from './eval-cases-public.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { EVAL_CASES } from './eval-cases.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let report: EvalReport;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
  report = await evaluateSearch(pool, await seedEvaluation(pool, 1000), 1000, 4);
  console.log(formatEvalReport(report));
}, 900_000);
afterAll(async () => {
  await pool.end();
  await database.drop();
});

describe('the evaluation set', () => {
  it('has at least 3x the 87 literals of the first set, 300 of them public with their address, across 20 ecosystems, each with a symptom query, all within the q limit', () => {
    expect(EVAL_CASES.length + PUBLIC_CASES.length).toBeGreaterThanOrEqual(3 * 87);
    expect(PUBLIC_CASES.length).toBeGreaterThanOrEqual(300);
    for (const c of PUBLIC_CASES) expect(c.source, c.id).toMatch(/^https:\/\/\S+$/);
    expect(new Set([...EVAL_CASES, ...PUBLIC_CASES].map((c) => c.ecosystem)).size).toBeGreaterThanOrEqual(20);
    const queries = evaluationQueries();
    for (const q of queries) expect(q.q.length, q.caseId).toBeLessThanOrEqual(SEARCH_Q_MAX_CHARS);
    for (const kind of EVAL_KINDS) expect(queries.filter((q) => q.kind === kind).length, kind).toBeGreaterThan(250);
  });

  it('has one case per id, and cases whose literals normalize alike differ in a discriminating raw token', () => {
    const cases = [...EVAL_CASES, ...PUBLIC_CASES];
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    const byNormalized = new Map<string, string>();
    for (const c of cases) {
      const key = normalizeLiteral(c.literal);
      const other = byNormalized.get(key);
      // Two records that read the same once normalized are told apart only by their service ports, loopbacks or hosts.
      if (other !== undefined)
        expect(signatureOf(c.literal), `${c.id} and ${other}`).not.toEqual(
          signatureOf(cases.find((x) => x.id === other)!.literal),
        );
      byNormalized.set(key, c.id);
    }
  });

  it('holds out a fixed third of the cases, decided by the case id alone', () => {
    const ids = [...EVAL_CASES, ...PUBLIC_CASES].map((c) => c.id);
    const heldOut = ids.filter((id) => splitOf(id) === 'heldout').length / ids.length;
    expect(heldOut).toBeGreaterThan(0.25);
    expect(heldOut).toBeLessThan(0.42);
    expect(ids.map(splitOf)).toEqual(ids.map(splitOf));
  });

  it('makes machine variants that differ from the literal but keep well-known ports', () => {
    const literal =
      'Error: connect ECONNREFUSED 10.0.3.7:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (/home/ci/app/node_modules/pg/lib/client.js:132:17)';
    const [a, b] = machineVariants(literal, 'seed');
    expect(a).not.toBe(literal);
    expect(b).not.toBe(literal);
    expect(a).toContain(':5432');
    expect(b).toMatch(/C:\\Users\\/);
  });
});

describe('search recall (mode auto, 1,000 noise records)', () => {
  it.each(['heldout', 'tuning'] as const)(
    '%s: finds the record within 7 for 97% of all queries, and first for 95%',
    (split) => {
      expect(report.recall[split].all.at7).toBeGreaterThanOrEqual(0.97);
      expect(report.recall[split].all.at1).toBeGreaterThanOrEqual(0.95);
    },
  );

  it.each(EVAL_KINDS)('finds the record within 7 for 95% of %s queries in each split, and first for 90%', (kind) => {
    for (const split of ['heldout', 'tuning'] as const) {
      expect(report.recall[split][kind].at7, split).toBeGreaterThanOrEqual(0.95);
      expect(report.recall[split][kind].at1, split).toBeGreaterThanOrEqual(0.9);
    }
  });
});
