/**
 * Trust in search: candidates carry it, ranking uses it (undisputed first,
 * then by confidence), the `disputed` filter, and the SQL decay used for
 * ranking agreeing with the TypeScript rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeTrust, trustAt } from '../../core/trust/assess.ts';
import { decayedConfidenceSql } from '../../db/queries/trust.ts';
import { searchDocumentsCaughtUp } from '../../database-search/search-catch-up.ts';
import { SearchParamsSchema } from '../../core/schemas/search-params.ts';
import { loadCandidateTrust } from '../../database-search/candidate-trust.ts';
import { runSearch } from '../../database-search/run-search.ts';
import { admit, errorOf, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let author: Agent;
let nextAddress = 1;
const ids: Record<string, string> = {};

const agentFrom = (address = `198.51.100.${nextAddress++}`) =>
  admit(stack.base, 'pseudonymous', {}, { 'x-forwarded-for': address });

async function report(solutionId: string, signal: string, agent?: Agent) {
  const res = await send(stack.base, agent ?? (await agentFrom()), 'POST', `/api/solutions/${solutionId}/outcomes`, {
    signal,
  });
  expect(res.status).toBe(201);
}

/** Search follows the commits in batches: each question is asked once it has caught up. */
async function search(params: Record<string, string>) {
  await searchDocumentsCaughtUp(stack.pool);
  const res = await fetch(`${stack.base}/api/search?${new URLSearchParams(params)}`);
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  stack = await startStack({ TRUST_PROXY: 'true' });
  author = await agentFrom();
  const problem = await send(
    stack.base,
    author,
    'POST',
    '/api/problems',
    problemBody({ title: 'Frobnicator crashes on start' }),
  );
  ids.problem = problem.body.resource.id;
  const solution = async (body: string) =>
    (await send(stack.base, author, 'POST', '/api/solutions', { problem_id: ids.problem, body })).body.resource
      .id as string;
  // Same words, so they tie on match kind and coverage; only trust and signals tell them apart.
  ids.burst = await solution('zebrafrob fix one: pin the frobnicator version');
  ids.independent = await solution('zebrafrob fix two: pin the frobnicator version');
  ids.disputed = await solution('zebrafrob fix three: pin the frobnicator version');
  // Three worked reports from one address burst: more signals, one confirmer.
  for (let i = 0; i < 3; i++) await report(ids.burst, 'worked', await agentFrom('203.0.113.9'));
  // Two worked reports from two addresses: fewer signals, two confirmers.
  await report(ids.independent, 'worked');
  await report(ids.independent, 'worked');
  // Most signals of all, but disputed.
  for (let i = 0; i < 3; i++) await report(ids.disputed, 'worked');
  for (let i = 0; i < 3; i++) await report(ids.disputed, 'did_not_work');
});
afterAll(() => stack.close());

describe('trust in search', () => {
  it('gives solution candidates their trust and ranks by it: undisputed first, then by confidence', async () => {
    const { status, body } = await search({ q: 'zebrafrob', type: 'solution' });
    expect(status).toBe(200);
    expect(body.items.map((c: { id: string }) => c.id)).toEqual([ids.independent, ids.burst, ids.disputed]);
    const [independent, burst, disputed] = body.items;
    expect(independent.trust).toMatchObject({ disputed: false, confirmations: { independent: 2, worked: 2 } });
    expect(burst.trust).toMatchObject({
      disputed: false,
      confirmations: { distinct_identities: 3, independent: 1, worked: 1 },
    });
    expect(burst.signals.worked).toBe(3);
    expect(independent.trust.confidence).toBeGreaterThan(burst.trust.confidence);
    expect(disputed.trust.disputed).toBe(true);
    expect(Object.keys(independent.trust).sort()).toEqual([
      'basis',
      'confidence',
      'confirmations',
      'disputed',
      'last_confirmed_at',
    ]);
  });

  it('filters with disputed=false and disputed=true, leaving the status enum as it is', async () => {
    const undisputed = await search({ q: 'zebrafrob', type: 'solution', disputed: 'false' });
    expect(undisputed.body.items.map((c: { id: string }) => c.id)).toEqual([ids.independent, ids.burst]);
    const only = await search({ q: 'zebrafrob', disputed: 'true' });
    expect(only.body.items.map((c: { id: string }) => c.id)).toEqual([ids.disputed]);
    const newest = await search({ disputed: 'true' });
    expect(newest.body.items.map((c: { id: string }) => c.id)).toEqual([ids.disputed]);
  });

  it('gives candidates the trust the trust statement gives, read by the search statement for its first rows', async () => {
    const now = new Date();
    for (const page of ['1', '2']) {
      const found = await runSearch(stack.pool, SearchParamsSchema.parse({ q: 'zebrafrob', limit: '2', page }), now);
      expect(found.items.length).toBeGreaterThan(0);
      // Without the subjects the search statement read: every candidate's trust from the trust statement.
      const loaded = await loadCandidateTrust(stack.pool, found.items, now);
      expect(found.items.map((c) => c.trust)).toEqual(found.items.map((c) => loaded.get(c.id) ?? null));
    }
    const solutions = await runSearch(stack.pool, SearchParamsSchema.parse({ q: 'zebrafrob', type: 'solution' }), now);
    expect(
      solutions.items.map((c) => (c.trust as { confirmations?: { worked: number } }).confirmations?.worked),
    ).toEqual([2, 1, 3]);
  });

  it('refuses a disputed value other than true or false with 400 naming the field', async () => {
    const res = await search({ q: 'zebrafrob', disputed: 'maybe' });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', field: 'disputed' });
  });

  it('gives problem candidates their disputed state and discussions none', async () => {
    const { body } = await search({ q: 'Frobnicator crashes on start', type: 'problem' });
    expect(body.items[0].trust).toEqual({ disputed: false, basis: expect.any(String) });
  });

  it('ranks by the same decayed confidence in SQL as the projections compute', async () => {
    const at = new Date(Date.now() - 200 * 86_400_000);
    const reports = ['a', 'b', 'c'].map((id) => ({
      identityId: `agt_${id}`,
      group: null,
      signal: 'worked' as const,
      note: null,
      at,
    }));
    const summary = summarizeTrust({
      revision: 1,
      author: { identityId: 'agt_x', group: null },
      outcomes: reports,
      feedback: [],
    });
    const r = await stack.pool.query(
      `SELECT ${decayedConfidenceSql('t')} AS c FROM (SELECT $1::float8 AS bound, $2::timestamptz AS decay_from) t`,
      [summary.bound, summary.decay_from],
    );
    expect(Number(r.rows[0].c)).toBeCloseTo(trustAt(summary, new Date()).confidence, 3);
    expect(trustAt(summary, new Date()).confidence).toBeLessThan(summary.bound);
  });
});
