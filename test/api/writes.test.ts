import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let author: Agent;
let other: Agent;
let guest: Agent;

beforeAll(async () => {
  stack = await startStack();
  author = await admit(stack.base);
  other = await admit(stack.base);
  guest = await admit(stack.base, 'guest');
});
afterAll(() => stack.close());

const count = async (table: string) => Number((await stack.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count);

async function createProblem(agent = author, over: Record<string, unknown> = {}) {
  const res = await send(stack.base, agent, 'POST', '/api/problems', problemBody(over));
  expect(res.status).toBe(201);
  return res.body.resource.id as string;
}

describe('POST /api/problems', () => {
  it('answers 201 with the committed receipt once the worker has committed', async () => {
    const key = newKey();
    const res = await send(stack.base, author, 'POST', '/api/problems', problemBody(), { key });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      operation: 'create_problem',
      idempotency_key: key,
      status: 'committed',
      replayed: false,
      resource: { type: 'problem', revision: 1 },
    });
    const id = res.body.resource.id;
    expect(id).toMatch(/^prb_[0-9a-z]{26}$/);
    expect(res.body.resource.links).toEqual({
      html: `/problems/${id}`,
      json: `/problems/${id}.json`,
      markdown: `/problems/${id}.md`,
    });
    expect(res.body.change_cursor).toMatch(/^\d+$/);
    expect(Number.isNaN(Date.parse(res.body.committed_at))).toBe(false);
    expect(res.headers.get('location')).toBe(`/problems/${id}`);
    // Committed means in the database, with its change row, when the client hears 201.
    const row = await stack.pool.query('SELECT current_revision FROM problems WHERE id = $1', [id]);
    expect(row.rows[0].current_revision).toBe(1);
    const change = await stack.pool.query('SELECT kind FROM changes WHERE cursor = $1', [res.body.change_cursor]);
    expect(change.rows[0].kind).toBe('problem.created');
  });

  it('replays the same key and body with 200 and the original receipt', async () => {
    const key = newKey();
    const first = await send(stack.base, author, 'POST', '/api/problems', problemBody(), { key });
    const again = await send(stack.base, author, 'POST', '/api/problems', problemBody(), { key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
  });

  it('treats a body with the same content in another key order as the same request', async () => {
    const key = newKey();
    await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      { title: 'Key order test', body: 'b', product: 'p' },
      { key },
    );
    const again = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      { product: 'p', body: 'b', title: 'Key order test' },
      { key },
    );
    expect(again.status).toBe(200);
  });

  it('answers a different body under a used key with 409 idempotency_payload_mismatch', async () => {
    const key = newKey();
    await send(stack.base, author, 'POST', '/api/problems', problemBody(), { key });
    const res = await send(
      stack.base,
      author,
      'POST',
      '/api/problems',
      problemBody({ title: 'Something else entirely' }),
      { key },
    );
    expect(res.status).toBe(409);
    expect(errorOf(res.body)).toMatchObject({ code: 'conflict', reason: 'idempotency_payload_mismatch' });
  });

  it('scopes keys to the identity: another agent may use the same key', async () => {
    const key = newKey();
    const a = await send(stack.base, author, 'POST', '/api/problems', problemBody(), { key });
    const b = await send(stack.base, other, 'POST', '/api/problems', problemBody(), { key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.resource.id).not.toBe(a.body.resource.id);
  });

  it('commits 20 concurrent identical writes exactly once', async () => {
    const before = await count('problems');
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(stack.base, author, 'POST', '/api/problems', problemBody({ title: 'Concurrent duplicate' }), { key }),
      ),
    );
    expect(await count('problems')).toBe(before + 1);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.body.resource.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
  });

  it('commits 20 concurrent writes with the same key but different bodies at most once', async () => {
    const before = await count('problems');
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(stack.base, author, 'POST', '/api/problems', problemBody({ title: `Racing body ${i}` }), { key }),
      ),
    );
    expect(await count('problems')).toBe(before + 1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
  });
});

describe('write errors', () => {
  const path = '/api/problems';

  it('answers no credential with 401 and a bad one with 401', async () => {
    const none = await send(stack.base, null, 'POST', path, problemBody());
    expect(none.status).toBe(401);
    expect(errorOf(none.body).code).toBe('missing_credential');
    const bad = await send(stack.base, null, 'POST', path, problemBody(), {
      headers: { authorization: `Bearer ${'unregistered'.padEnd(43, '0')}` },
    });
    expect(bad.status).toBe(401);
    expect(errorOf(bad.body).code).toBe('invalid_or_revoked_credential');
  });

  it('answers a credential without the scope with 403 insufficient_permission', async () => {
    const res = await send(stack.base, guest, 'POST', path, problemBody());
    expect(res.status).toBe(403);
    expect(errorOf(res.body)).toMatchObject({ code: 'insufficient_permission', reason: 'missing_scope' });
  });

  it('answers a missing Idempotency-Key with 400 naming the header', async () => {
    const res = await fetch(stack.base + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${author.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(problemBody()),
    });
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({
      code: 'invalid_arguments',
      field: 'Idempotency-Key',
      reason: 'missing_idempotency_key',
    });
  });

  it.each([
    ['no colon', 'abcdefghij'],
    ['a short second segment', 'agent:1234567'],
    ['a long first segment', `${'a'.repeat(65)}:12345678`],
    ['a long second segment', `a:${'b'.repeat(129)}`],
    ['a forbidden character', 'agent:1234567.8'],
  ])('answers an Idempotency-Key with %s with 400', async (_name, key) => {
    const res = await send(stack.base, author, 'POST', path, problemBody(), { key });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ field: 'Idempotency-Key', reason: 'invalid_idempotency_key' });
  });

  it.each([
    ['the shortest keys', 'a:12345678'],
    ['the longest keys', `${'a'.repeat(64)}:${'b'.repeat(128)}`],
  ])('accepts an Idempotency-Key with %s', async (_name, key) => {
    expect((await send(stack.base, author, 'POST', path, problemBody(), { key })).status).toBe(201);
  });

  it('answers a non-JSON media type with 415', async () => {
    const res = await send(stack.base, author, 'POST', path, 'title=x', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(errorOf(res.body).code).toBe('unsupported_media_type');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await send(stack.base, author, 'POST', path, '{"title": ');
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'invalid_json' });
  });

  it('answers a body over 1 MiB with 413, readable by the client', async () => {
    const res = await send(stack.base, author, 'POST', path, problemBody({ body: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(errorOf(res.body).code).toBe('payload_too_large');
  });

  describe.each([
    ['an unknown field', problemBody({ sneaky: 1 }), 'sneaky', 'unknown_field'],
    ['a missing title', { body: 'b', product: 'p' }, 'title', 'missing_field'],
    ['a short title', problemBody({ title: 'abcd' }), 'title', 'out_of_range'],
    ['a long title', problemBody({ title: 't'.repeat(201) }), 'title', 'out_of_range'],
    ['an empty body', problemBody({ body: '' }), 'body', 'out_of_range'],
    ['a long product', problemBody({ product: 'p'.repeat(121) }), 'product', 'out_of_range'],
    ['eleven tags', problemBody({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }), 'tags', 'out_of_range'],
    ['a long tag', problemBody({ tags: ['x'.repeat(41)] }), 'tags.0', 'out_of_range'],
    ['a title of the wrong type', problemBody({ title: 42 }), 'title', 'invalid_type'],
    ['a JSON array', [1, 2], undefined, 'invalid_type'],
  ])('with %s', (_name, body, field, reason) => {
    it('answers 400 in the Error shape naming the field', async () => {
      const res = await send(stack.base, author, 'POST', path, body);
      expect(res.status).toBe(400);
      const error = errorOf(res.body);
      expect(error).toMatchObject({ code: 'invalid_arguments', status: 400, reason });
      if (field) expect(error.field).toBe(field);
    });
  });

  it('accepts the bounds exactly: title of 5 and 200, product of 120, ten tags of 40', async () => {
    const res = await send(
      stack.base,
      author,
      'POST',
      path,
      problemBody({
        title: 'abcde',
        product: 'p'.repeat(120),
        tags: Array.from({ length: 10 }, () => 'x'.repeat(40)),
      }),
    );
    expect(res.status).toBe(201);
    expect((await send(stack.base, author, 'POST', path, problemBody({ title: 't'.repeat(200) }))).status).toBe(201);
  });

  it('answers other methods with 405 and Allow, and OPTIONS with 204 and Allow', async () => {
    const del = await fetch(stack.base + path, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(errorOf(await del.json()).code).toBe('unsupported_operation');
    for (const p of [
      '/api/problems',
      '/api/problems/prb_x',
      '/api/solutions',
      '/api/solutions/sol_x',
      '/api/solutions/sol_x/outcomes',
    ]) {
      const res = await fetch(stack.base + p, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toContain('OPTIONS');
      expect(await res.text()).toBe('');
    }
  });

  it('leaves no record behind after any refused write', async () => {
    const before = await count('problem_revisions');
    await send(stack.base, guest, 'POST', path, problemBody());
    await send(stack.base, author, 'POST', path, problemBody({ sneaky: true }));
    expect(await count('problem_revisions')).toBe(before);
  });
});

describe('PATCH /api/problems/{id}', () => {
  it('creates a new revision and keeps the fields the edit omits', async () => {
    const id = await createProblem(author, { error_literal: 'ENOSPC: System limit reached', tags: ['linux'] });
    const res = await send(stack.base, author, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'Build fails with ENOSPC (watchers)',
    });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ id, revision: 2 });
    const rows = await stack.pool.query(
      'SELECT revision, title, error_literal, tags FROM problem_revisions WHERE problem_id = $1 ORDER BY revision',
      [id],
    );
    expect(rows.rows).toEqual([
      { revision: 1, title: 'Build fails with ENOSPC', error_literal: 'ENOSPC: System limit reached', tags: ['linux'] },
      {
        revision: 2,
        title: 'Build fails with ENOSPC (watchers)',
        error_literal: 'ENOSPC: System limit reached',
        tags: ['linux'],
      },
    ]);
  });

  it('answers a stale base_revision with 409 revision_conflict', async () => {
    const id = await createProblem();
    expect(
      (await send(stack.base, author, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'second' })).status,
    ).toBe(201);
    const stale = await send(stack.base, author, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'third' });
    expect(stale.status).toBe(409);
    expect(errorOf(stale.body)).toMatchObject({
      code: 'conflict',
      reason: 'revision_conflict',
      field: 'base_revision',
    });
  });

  it('lets exactly one of two concurrent edits of the same base revision win', async () => {
    const id = await createProblem();
    const [a, b] = await Promise.all([
      send(stack.base, author, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'edit A' }),
      send(stack.base, author, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'edit B' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
  });

  it("answers an edit of another identity's problem with 403 review_required", async () => {
    const id = await createProblem(author);
    const res = await send(stack.base, other, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'hijack' });
    expect(res.status).toBe(403);
    expect(errorOf(res.body)).toMatchObject({ code: 'review_required', reason: 'not_owner' });
  });

  it('answers an unknown or malformed id with 404', async () => {
    for (const id of ['prb_0000000000000000000000000z', 'not-an-id']) {
      const res = await send(stack.base, author, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'x' });
      expect(res.status).toBe(404);
      expect(errorOf(res.body).code).toBe('not_found');
    }
  });

  it('requires base_revision and the edit_own scope', async () => {
    const id = await createProblem();
    const missing = await send(stack.base, author, 'PATCH', `/api/problems/${id}`, { body: 'x' });
    expect(errorOf(missing.body)).toMatchObject({ field: 'base_revision', reason: 'missing_field' });
    const limited = await admit(stack.base, 'pseudonymous', { scopes: ['knowledge'] });
    const res = await send(stack.base, limited, 'PATCH', `/api/problems/${id}`, { base_revision: 1, body: 'x' });
    expect(res.status).toBe(403);
  });
});

describe('solutions and outcomes', () => {
  it('creates a solution for a problem, edits it, and reports outcomes on it', async () => {
    const problemId = await createProblem();
    const created = await send(stack.base, other, 'POST', '/api/solutions', {
      problem_id: problemId,
      body: 'Raise fs.inotify.max_user_watches.',
      applicability: 'Linux hosts',
      limitations: 'Needs root',
    });
    expect(created.status).toBe(201);
    const solutionId = created.body.resource.id;
    expect(solutionId).toMatch(/^sol_/);

    const edited = await send(stack.base, other, 'PATCH', `/api/solutions/${solutionId}`, {
      base_revision: 1,
      limitations: 'Needs root or sysctl access',
    });
    expect(edited.body.resource.revision).toBe(2);
    const rev = await stack.pool.query(
      'SELECT body, limitations FROM solution_revisions WHERE solution_id = $1 AND revision = 2',
      [solutionId],
    );
    expect(rev.rows[0]).toEqual({
      body: 'Raise fs.inotify.max_user_watches.',
      limitations: 'Needs root or sysctl access',
    });

    const outcome = await send(stack.base, author, 'POST', `/api/solutions/${solutionId}/outcomes`, {
      signal: 'worked',
      note: 'Fixed on Ubuntu 24.04',
    });
    expect(outcome.status).toBe(201);
    expect(outcome.body.resource).toMatchObject({ type: 'outcome', revision: null });
    expect(outcome.body.resource.id).toMatch(/^out_/);
    const stored = await stack.pool.query('SELECT solution_revision, signal FROM outcomes WHERE id = $1', [
      outcome.body.resource.id,
    ]);
    expect(stored.rows[0]).toEqual({ solution_revision: 2, signal: 'worked' });
  });

  it('answers a solution for an unknown problem with 404 naming problem_id', async () => {
    const res = await send(stack.base, author, 'POST', '/api/solutions', {
      problem_id: 'prb_0000000000000000000000000z',
      body: 'x',
    });
    expect(res.status).toBe(404);
    expect(errorOf(res.body)).toMatchObject({ code: 'not_found', field: 'problem_id' });
  });

  it('refuses an outcome with an unknown signal or a future solution_revision', async () => {
    const problemId = await createProblem();
    const s = await send(stack.base, author, 'POST', '/api/solutions', { problem_id: problemId, body: 'x' });
    const bad = await send(stack.base, author, 'POST', `/api/solutions/${s.body.resource.id}/outcomes`, {
      signal: 'meh',
    });
    expect(errorOf(bad.body)).toMatchObject({ code: 'invalid_arguments', field: 'signal' });
    const future = await send(stack.base, author, 'POST', `/api/solutions/${s.body.resource.id}/outcomes`, {
      signal: 'worked',
      solution_revision: 9,
    });
    expect(errorOf(future.body)).toMatchObject({
      code: 'invalid_arguments',
      field: 'solution_revision',
      reason: 'future_revision',
    });
    const unknown = await send(stack.base, author, 'POST', '/api/solutions/sol_0000000000000000000000000z/outcomes', {
      signal: 'worked',
    });
    expect(unknown.status).toBe(404);
  });

  it("answers an edit of another identity's solution with 403 review_required", async () => {
    const problemId = await createProblem();
    const s = await send(stack.base, author, 'POST', '/api/solutions', { problem_id: problemId, body: 'x' });
    const res = await send(stack.base, other, 'PATCH', `/api/solutions/${s.body.resource.id}`, {
      base_revision: 1,
      body: 'mine now',
    });
    expect(errorOf(res.body).code).toBe('review_required');
  });
});
