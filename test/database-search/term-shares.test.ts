/**
 * A term's share of all documents comes from the planner's statistics, which the search statement reads
 * when it is planned (db/migrations/000018.sql): a search session's prepared statement keeps its generic
 * plan, and so the statistics in it, until ANALYZE invalidates the plan. The shares a session sees must
 * follow ANALYZE, never stay those of its first plan.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { createPool } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { findMatchingDocuments, KIND_RANK, searchSessionOptions, type MatchQuery } from '../../db/queries/search.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import {
  allTermsQuery,
  looserPrefilterQuery,
  minimumTerms,
  nearlyAllTermsQuery,
} from '../../database-search/keyword-query.ts';
import { keyHash } from '../../database-search/normalize.ts';
import { queryTerms } from '../../database-search/query-terms.ts';
import { RANKING_WEIGHTS } from '../../database-search/ranking.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let searchPool: pg.Pool;
let author: string;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 2);
  // Sessions as the API's search pool opens them: generic plans, planned once per session.
  searchPool = createPool(database.url, 1, undefined, searchSessionOptions(10_000));
  author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'shares-agent', display_name: null });
});
afterAll(async () => {
  await searchPool.end();
  await pool.end();
  await database.drop();
});

async function createProblems(count: number, body: string): Promise<void> {
  for (let i = 0; i < count; i++)
    await insertStoredProblem(pool, author, {
      title: `A stored problem ${i}`,
      body: `${body} ${i}`,
      product: 'shares',
      error_literal: null,
    });
  await searchDocumentsCaughtUp(pool);
}

async function shareOf(client: pg.PoolClient, message: string): Promise<number | undefined> {
  const terms = await queryTerms(pool, message, 16);
  const query: MatchQuery = {
    level: KIND_RANK.keywords,
    fallBack: false,
    keys: [],
    keyWeights: [],
    wholeKey: keyHash(message),
    pattern: null,
    needle: message,
    pairs: [],
    terms,
    allTerms: allTermsQuery(terms),
    prefilter: looserPrefilterQuery(terms),
    minTerms: minimumTerms(terms.length),
    nearlyAll: nearlyAllTermsQuery(terms),
    signature: { hits: [], known: [] },
    signatureTitle: false,
    weights: RANKING_WEIGHTS,
    candidateCap: 50,
    strictCap: 50,
    filters: {},
    offset: 0,
    limit: 7,
  };
  return (await findMatchingDocuments(client, query, { prepared: true })).termShares?.[0];
}

describe('term shares in a search session', () => {
  it('follow ANALYZE although the session keeps its prepared statement', async () => {
    await createProblems(20, 'quokkaz marsupial');
    await pool.query('ANALYZE search_documents');
    const client = await searchPool.connect();
    try {
      const first = await shareOf(client, 'quokkaz marsupial');
      expect(first).toBeGreaterThan(0.9);
      // Planned again or not, the same statistics give the same share.
      expect(await shareOf(client, 'quokkaz marsupial')).toBe(first);

      await createProblems(60, 'wallabyq');
      await pool.query('ANALYZE search_documents');
      const after = await shareOf(client, 'quokkaz marsupial');
      expect(after).toBeGreaterThan(0.15);
      expect(after).toBeLessThan(0.35);
    } finally {
      client.release();
    }
  });
});
