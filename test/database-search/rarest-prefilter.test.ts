/**
 * A long query's keyword prefilter pairs its rarest terms
 * (keyword-query.ts, `rarestPairsSize`; db/queries/search.ts): records
 * sharing only its common words cannot fill the candidate cap ahead of the
 * record holding half of its terms.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { newId } from '../../core/ids.ts';
import { createPool } from '../../db/pool.ts';
import { insertIdentity } from '../../db/queries/identities.ts';
import { findMatchingDocuments, KIND_RANK, type MatchQuery } from '../../db/queries/search.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import {
  allTermsQuery,
  looserPrefilterQuery,
  minimumTerms,
  nearlyAllTermsQuery,
  rarestPairsSize,
} from '../../database-search/keyword-query.ts';
import { keyHash } from '../../database-search/normalize.ts';
import { queryTerms } from '../../database-search/query-terms.ts';
import { RANKING_WEIGHTS } from '../../database-search/ranking.ts';
import { cloneDatabase } from '../helpers/database.ts';
import { insertStoredProblem } from '../helpers/stored-problem.ts';

let database: Awaited<ReturnType<typeof cloneDatabase>>;
let pool: pg.Pool;
let author: string;

beforeAll(async () => {
  database = await cloneDatabase(inject('templateDatabase'));
  pool = createPool(database.url, 4);
  author = newId('agent');
  await insertIdentity(pool, { id: author, kind: 'pseudonymous', handle: 'rarest-agent', display_name: null });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

async function createProblem(body: string): Promise<string> {
  const id = await insertStoredProblem(pool, author, {
    title: 'A stored problem',
    body,
    product: 'rarest',
    error_literal: null,
  });
  await searchDocumentsCaughtUp(pool);
  return id;
}

const WORDS = [
  'amberlyx',
  'bristolq',
  'corvidz',
  'dravenq',
  'elmquist',
  'fjordax',
  'glyptodon',
  'hexapodz',
  'ibexq',
  'jackdawz',
  'kestrelq',
  'lemurx',
  'marmotz',
  'narwhalq',
  'ocelotz',
  'pangolinx',
];

describe('rarestPairsSize', () => {
  it('is null while the prefilter is exactly "k of n", and n−k+2 once it pairs a subset', () => {
    expect(rarestPairsSize(0)).toBeNull();
    expect(rarestPairsSize(6)).toBeNull();
    expect(rarestPairsSize(16)).toBe(16 - minimumTerms(16) + 2);
    expect(rarestPairsSize(16, 6)).toBe(12);
  });
});

describe('a long query of common and rare terms', () => {
  it('finds the record holding half of its terms although records holding two of its first terms outnumber the cap', async () => {
    // Written first, so an index scan in table order meets them before the record sought.
    for (let i = 0; i < 30; i++) await createProblem(`${WORDS[0]} ${WORDS[1]} noise ${i}`);
    const sought = await createProblem(WORDS.slice(8).join(' '));
    await pool.query('ANALYZE search_documents');

    const message = WORDS.join(' ');
    const terms = await queryTerms(pool, message, 16);
    expect(terms).toHaveLength(16);
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
      prefilterRarest: rarestPairsSize(terms.length),
      minTerms: minimumTerms(terms.length),
      nearlyAll: nearlyAllTermsQuery(terms),
      signature: { hits: [], known: [] },
      signatureTitle: false,
      weights: RANKING_WEIGHTS,
      candidateCap: 5,
      strictCap: 5,
      filters: {},
      offset: 0,
      limit: 7,
    };
    const found = await findMatchingDocuments(pool, query);
    expect(found.rows.map((row) => row.id)).toEqual([sought]);
    expect(found.rows[0]!.coverage).toBe(0.5);
  });
});

describe("records holding all of a query's terms but one", () => {
  it('are all read, whichever term each one lacks, and no record lacking two', async () => {
    const words = ['quokkaz', 'rheax', 'serowq', 'takinz', 'urialx', 'vicunaq'];
    const lacking = await Promise.all(
      words.map((missing) => createProblem(words.filter((w) => w !== missing).join(' '))),
    );
    await createProblem(words.slice(2).join(' '));
    // Common words beside them: the statistics rank the terms, so the record lacking the rarest is read too.
    for (let i = 0; i < 10; i++) await createProblem(`${words[0]} ${words[1]} ${words[2]} filler ${i}`);
    await pool.query('ANALYZE search_documents');

    const message = words.join(' ');
    const terms = await queryTerms(pool, message, 16);
    expect(terms).toHaveLength(6);
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
      prefilter: null,
      minTerms: 5,
      nearlyAll: nearlyAllTermsQuery(terms),
      signature: { hits: [], known: [] },
      signatureTitle: false,
      weights: RANKING_WEIGHTS,
      candidateCap: 50,
      strictCap: 50,
      filters: {},
      offset: 0,
      limit: 20,
    };
    const found = await findMatchingDocuments(pool, query);
    expect(found.rows.map((row) => row.id).sort()).toEqual([...lacking].sort());
    expect(found.rows.every((row) => Math.abs(row.coverage - 5 / 6) < 1e-9)).toBe(true);
  });
});
