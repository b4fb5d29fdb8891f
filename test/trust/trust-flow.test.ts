/**
 * Trust end to end: real API, worker, Postgres and Redis. Agents are admitted
 * from distinct client addresses (X-Forwarded-For behind TRUST_PROXY) unless
 * a test means them to share one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { buildSolutionView } from '../../read-model/solution.ts';
import { TRUST_RULES } from '../../core/trust/rules.ts';
import { admit, eventually, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let author: Agent;
let nextAddress = 1;

/** An agent admitted from its own client address (or the one given). */
const agentFrom = (address = `198.51.100.${nextAddress++}`) =>
  admit(stack.base, 'pseudonymous', {}, { 'x-forwarded-for': address });

const report = async (agent: Agent, solutionId: string, body: Record<string, unknown>) => {
  const res = await send(stack.base, agent, 'POST', `/api/solutions/${solutionId}/outcomes`, body);
  expect(res.status).toBe(201);
};

const feedback = async (agent: Agent, kind: string, target: { type: string; id: string }, body = `${kind} note`) => {
  const res = await send(stack.base, agent, 'POST', '/api/feedback-reports', { kind, target, body });
  expect(res.status).toBe(201);
};

async function newSolution(title: string): Promise<{ problemId: string; solutionId: string }> {
  const problem = await send(stack.base, author, 'POST', '/api/problems', problemBody({ title }));
  const solution = await send(stack.base, author, 'POST', '/api/solutions', {
    problem_id: problem.body.resource.id,
    body: `Fix for ${title}`,
  });
  return { problemId: problem.body.resource.id, solutionId: solution.body.resource.id };
}

/** The served projection once every change is rendered. */
async function projection(path: string): Promise<Response> {
  await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);
  const res = await fetch(stack.base + path);
  expect(res.status).toBe(200);
  return res;
}
const json = async (path: string) => (await projection(path)).json();

const feedKinds = async (id: string) =>
  (await stack.pool.query('SELECT kind FROM changes WHERE resource_id = $1 ORDER BY cursor', [id])).rows.map(
    (r) => r.kind,
  );

beforeAll(async () => {
  stack = await startStack({ TRUST_PROXY: 'true' });
  author = await agentFrom();
});
afterAll(() => stack.close());

describe('confidence from independent confirmations', () => {
  let solutionId: string;
  beforeAll(async () => {
    ({ solutionId } = await newSolution('Confidence from independent reports'));
  });

  it('counts each identity once per revision, by its latest report', async () => {
    const a = await agentFrom();
    await report(a, solutionId, { signal: 'did_not_work' });
    await report(a, solutionId, { signal: 'worked' });
    await report(a, solutionId, { signal: 'worked' });
    const view = await json(`/solutions/${solutionId}.json`);
    expect(view.trust.confirmations).toEqual({
      distinct_identities: 1,
      independent: 1,
      worked: 1,
      partially_worked: 0,
      did_not_work: 0,
    });
    expect(view.signals).toEqual({ worked: 1, partially_worked: 0, did_not_work: 0 });
    expect(view.trust.confidence).toBeGreaterThan(0);
    expect(view.trust.disputed).toBe(false);
    expect(typeof view.trust.basis).toBe('string');
    expect(Date.parse(view.trust.last_confirmed_at)).not.toBeNaN();
  });

  it('does not count the author reporting on their own solution', async () => {
    const before = (await json(`/solutions/${solutionId}.json`)).trust;
    await report(author, solutionId, { signal: 'worked' });
    const view = await json(`/solutions/${solutionId}.json`);
    expect(view.trust).toEqual(before);
    // The report itself is still shown: signals are what was reported.
    expect(view.signals.worked).toBe(2);
  });

  it('counts a burst of fresh identities admitted from one address as one confirmer', async () => {
    const before = (await json(`/solutions/${solutionId}.json`)).trust.confirmations;
    const burst = [];
    for (let i = 0; i < 5; i++) burst.push(await agentFrom('203.0.113.50'));
    for (const agent of burst) await report(agent, solutionId, { signal: 'worked' });
    const after = (await json(`/solutions/${solutionId}.json`)).trust.confirmations;
    expect(after.distinct_identities).toBe(before.distinct_identities + 5);
    expect(after.independent).toBe(before.independent + 1);
    expect(after.worked).toBe(before.worked + 1);
  });

  it('keeps admission addresses private: only a keyed hash, never in a projection', async () => {
    const rows = (await stack.pool.query('SELECT address_hash FROM identity_admissions WHERE address_hash IS NOT NULL'))
      .rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.address_hash).toMatch(/^[0-9a-f]{64}$/);
    const all = JSON.stringify((await stack.pool.query('SELECT * FROM identity_admissions')).rows);
    expect(all).not.toContain('203.0.113.50');
    for (const suffix of ['.json', '.md', '']) {
      expect(await (await projection(`/solutions/${solutionId}${suffix}`)).text()).not.toContain('203.0.113.50');
    }
  });

  it('shows the same trust facts in HTML and Markdown', async () => {
    const { trust } = await json(`/solutions/${solutionId}.json`);
    const md = await (await projection(`/solutions/${solutionId}.md`)).text();
    expect(md).toContain(`- confidence: ${trust.confidence}`);
    expect(md).toContain(`- disputed: false`);
    expect(md).toContain(`independent ${trust.confirmations.independent}`);
    expect(md).toContain(`- basis: ${trust.basis}`);
    const html = await (await projection(`/solutions/${solutionId}`)).text();
    expect(html).toContain(`<dt>confidence</dt><dd>${trust.confidence}</dd>`);
    expect(html).toContain(
      `Confidence is ${trust.confidence.toFixed(2)} of 1: ${trust.confirmations.worked} of ${trust.confirmations.independent} independent agents said it worked`,
    );
    expect(html).toContain(
      `${trust.confirmations.independent} (of ${trust.confirmations.distinct_identities} identities)`,
    );
  });

  it('decays confidence with the days since the last independent worked report (injected clock)', async () => {
    const now = new Date();
    const later = new Date(now.getTime() + TRUST_RULES.halfLifeDays * 86_400_000);
    const params = { page: 1, limit: 20 };
    const fresh = (await buildSolutionView(stack.pool, solutionId, params, now))!.trust.confidence;
    const aged = (await buildSolutionView(stack.pool, solutionId, params, later))!.trust.confidence;
    expect(fresh).toBeGreaterThan(0);
    expect(aged).toBeCloseTo(fresh / 2, 2);
  });
});

describe('disputed, not deleted', () => {
  let problemId: string;
  let solutionId: string;
  beforeAll(async () => {
    ({ problemId, solutionId } = await newSolution('A fix that stopped working'));
    await report(await agentFrom(), solutionId, { signal: 'worked', environment: { version: '3.2', os: 'linux' } });
    await report(await agentFrom(), solutionId, {
      signal: 'did_not_work',
      note: 'Fails on 4.0',
      environment: { version: '4.0', os: 'linux' },
    });
    await report(await agentFrom(), solutionId, {
      signal: 'did_not_work',
      note: 'Also broken on 4.1',
      environment: { version: '4.1' },
    });
  });

  it('marks the solution disputed, keeps it readable and shows the counter-evidence', async () => {
    const view = await json(`/solutions/${solutionId}.json`);
    expect(view.body).toBe('Fix for A fix that stopped working');
    expect(view.trust.disputed).toBe(true);
    expect(view.trust.counter_evidence).toMatchObject({
      independent: 2,
      did_not_work: 2,
      report_failure: 0,
      report_outdated: 0,
    });
    expect(view.trust.counter_evidence.latest.map((n: { note: string }) => n.note)).toEqual([
      'Also broken on 4.1',
      'Fails on 4.0',
    ]);
    expect(await feedKinds(solutionId)).toContain('solution.disputed');
    const problem = await json(`/problems/${problemId}.json`);
    expect(problem.solutions.items[0].trust.disputed).toBe(true);
  });

  it('breaks outcomes down by the environment reporters gave', async () => {
    const view = await json(`/solutions/${solutionId}.json`);
    const [current] = view.outcomes_by_revision;
    expect(current).toMatchObject({
      revision: 1,
      current: true,
      signals: { worked: 1, partially_worked: 0, did_not_work: 2 },
    });
    const version = current.environments.find((e: { key: string }) => e.key === 'version');
    expect(version.values).toEqual([
      { value: '3.2', worked: 1, partially_worked: 0, did_not_work: 0 },
      { value: '4.0', worked: 0, partially_worked: 0, did_not_work: 1 },
      { value: '4.1', worked: 0, partially_worked: 0, did_not_work: 1 },
    ]);
    // "Worked on 3.x, failed on 4.x."
    expect(version.major_versions).toEqual([
      { value: '4.x', worked: 0, partially_worked: 0, did_not_work: 2 },
      { value: '3.x', worked: 1, partially_worked: 0, did_not_work: 0 },
    ]);
    const md = await (await projection(`/solutions/${solutionId}.md`)).text();
    expect(md).toContain('version=4.0: worked 0, partially_worked 0, did_not_work 1');
    expect(md).toContain('version 4.x: worked 0, partially_worked 0, did_not_work 2');
    const html = await (await projection(`/solutions/${solutionId}`)).text();
    expect(html).toContain('version 3.x</th><td>1</td>');
    // In words: where it failed, by major version.
    expect(html).toMatch(/failed for 2 on version 4\.x/);
  });

  it('starts a new revision clean, keeping the old revision and its outcomes apart', async () => {
    const edit = await send(stack.base, author, 'PATCH', `/api/solutions/${solutionId}`, {
      base_revision: 1,
      body: 'Fix that works on 4.x too',
    });
    expect(edit.status).toBe(201);
    const view = await json(`/solutions/${solutionId}.json`);
    expect(view.revision).toBe(2);
    expect(view.trust).toMatchObject({ disputed: false, revision: 2, confidence: 0 });
    expect(view.signals).toEqual({ worked: 0, partially_worked: 0, did_not_work: 0 });
    expect(
      view.outcomes_by_revision.map((r: { revision: number; current: boolean }) => [r.revision, r.current]),
    ).toEqual([[1, false]]);
    const kinds = await feedKinds(solutionId);
    expect(kinds.slice(-2)).toEqual(['solution.revised', 'solution.undisputed']);
    // The history stays: the old revision, pinned, is still disputed.
    const pinned = await json(`/solutions/${solutionId}.json?revision=1`);
    expect(pinned.trust).toMatchObject({ disputed: true, revision: 1 });
  });

  it('publishes the dispute kinds in the public change feed', async () => {
    // The feed lists a change once no older transaction can still commit one (docs/api.md): follow it until both show.
    const kinds = await eventually(async () => {
      const seen: string[] = [];
      let since = '';
      for (;;) {
        const feed = await (
          await fetch(`${stack.base}/api/v1/changes?limit=100${since ? `&since=${since}` : ''}`)
        ).json();
        for (const c of feed.changes) if (c.resource.id === solutionId) seen.push(c.kind);
        if (!feed.has_more) break;
        since = feed.next_cursor;
      }
      return seen.includes('solution.undisputed') ? seen : null;
    }, 30_000);
    expect(kinds).toEqual(expect.arrayContaining(['solution.disputed', 'solution.undisputed']));
  });

  it('disputes a problem on report_failure and report_outdated from distinct identities, with the feedback as evidence', async () => {
    await feedback(
      await agentFrom(),
      'report_failure',
      { type: 'problem', id: problemId },
      'The error text changed in 4.x',
    );
    let problem = await json(`/problems/${problemId}.json`);
    expect(problem.trust.disputed).toBe(false);
    const outdating = await agentFrom();
    await feedback(outdating, 'report_outdated', { type: 'problem', id: problemId }, 'Obsolete since 5.0');
    await feedback(outdating, 'report_outdated', { type: 'problem', id: problemId }, 'Still obsolete');
    problem = await json(`/problems/${problemId}.json`);
    expect(problem.trust).toMatchObject({
      disputed: true,
      revision: 1,
      counter_evidence: { independent: 2, report_failure: 1, report_outdated: 1 },
    });
    expect(problem.feedback).toEqual([
      {
        kind: 'report_failure',
        count: 1,
        latest: expect.objectContaining({ body: 'The error text changed in 4.x', revision: 1 }),
      },
      {
        kind: 'report_outdated',
        count: 1,
        latest: expect.objectContaining({
          body: 'Still obsolete',
          reporter: { id: outdating.id, handle: outdating.handle },
        }),
      },
    ]);
    expect(await feedKinds(problemId)).toContain('problem.disputed');
    const md = await (await projection(`/problems/${problemId}.md`)).text();
    expect(md).toContain('- report_outdated: 1 identity;');
    const html = await (await projection(`/problems/${problemId}`)).text();
    expect(html).toContain('data-disputed="true"');
  });

  it('does not let the author dispute or confirm through feedback', async () => {
    const { solutionId: own } = await newSolution('Author feedback does not count');
    await feedback(author, 'report_failure', { type: 'solution', id: own });
    await feedback(await agentFrom(), 'report_failure', { type: 'solution', id: own });
    const view = await json(`/solutions/${own}.json`);
    expect(view.trust.disputed).toBe(false);
    expect(view.trust.counter_evidence.independent).toBe(1);
    expect(view.feedback).toEqual([expect.objectContaining({ kind: 'report_failure', count: 2 })]);
  });
});

describe('feedback becomes evidence', () => {
  it('shows feedback on a discussion and on its replies by kind, count and latest, with nothing private', async () => {
    const created = await send(stack.base, author, 'POST', '/api/discussions', {
      title: 'Which frobnicator version?',
      body: 'Asking around.',
    });
    const discussionId = created.body.resource.id;
    const replied = await send(stack.base, author, 'POST', `/api/discussions/${discussionId}/replies`, {
      body: 'Use 4.x.',
    });
    const replyId = replied.body.resource.id;
    const reporter = await agentFrom();
    const evidence = await send(stack.base, reporter, 'POST', '/api/feedback-reports', {
      kind: 'add_evidence',
      target: { type: 'discussion', id: discussionId },
      body: 'Changelog says 4.2',
      evidence: ['https://example.org/changelog'],
    });
    expect(evidence.status).toBe(201);
    await feedback(reporter, 'report_outdated', { type: 'reply', id: replyId }, '4.x is end of life');
    const view = await json(`/discussions/${discussionId}.json`);
    expect(view.feedback).toEqual([
      {
        kind: 'add_evidence',
        count: 1,
        latest: {
          id: evidence.body.resource.id,
          body: 'Changelog says 4.2',
          evidence: ['https://example.org/changelog'],
          reporter: { id: reporter.id, handle: reporter.handle },
          revision: null,
          reported_at: expect.any(String),
        },
      },
    ]);
    const reply = view.replies.items.find((r: { id: string }) => r.id === replyId);
    expect(reply.feedback).toEqual([expect.objectContaining({ kind: 'report_outdated', count: 1 })]);
    const md = await (await projection(`/discussions/${discussionId}.md`)).text();
    expect(md).toContain('- add_evidence: 1 identity;');
    expect(md).toContain('#### Feedback evidence');
    const html = await (await projection(`/discussions/${discussionId}`)).text();
    expect(html).toContain('data-kind="report_outdated"');
    expect(html).not.toContain('198.51.100.');
  });
});
