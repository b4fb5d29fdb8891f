/**
 * Point 8: a PATCH with only `base_revision` answered 201 and made revision 3.
 * Decided (docs/api.md, Decisions): an edit whose resulting fields
 * equal the base revision's creates no revision and no change row; it answers
 * 200 with `unchanged: true`, `change_cursor: null` and the unchanged
 * revision, and is idempotent like every write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;
beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

const count = async (sql: string, params: unknown[]) => Number((await stack.pool.query(sql, params)).rows[0].count);
const changesOf = (id: string) => count('SELECT count(*) FROM changes WHERE resource_id = $1', [id]);

describe('an edit that changes nothing', () => {
  it('creates no problem revision and no change row, answers 200 unchanged, and replays as such', async () => {
    const id = (await send(stack.base, agent, 'POST', '/api/problems', problemBody({ tags: ['b', 'a'] }))).body.resource
      .id;
    const changesBefore = await changesOf(id);
    const key = newKey();
    for (const body of [{ base_revision: 1 }, { base_revision: 1, title: problemBody().title, tags: ['b', 'a'] }]) {
      const res = await send(stack.base, agent, 'PATCH', `/api/problems/${id}`, body, {
        key: body.title ? newKey() : key,
      });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({
        replayed: false,
        unchanged: true,
        change_cursor: null,
        resource: { id, revision: 1 },
      });
      expect(res.headers.get('location')).toBeNull();
    }
    const replay = await send(stack.base, agent, 'PATCH', `/api/problems/${id}`, { base_revision: 1 }, { key });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ replayed: true, unchanged: true, resource: { revision: 1 } });
    expect(await count('SELECT count(*) FROM problem_revisions WHERE problem_id = $1', [id])).toBe(1);
    expect(await changesOf(id)).toBe(changesBefore);

    // A real change still makes the next revision.
    const edited = await send(stack.base, agent, 'PATCH', `/api/problems/${id}`, {
      base_revision: 1,
      title: 'A different title now',
    });
    expect(edited.status).toBe(201);
    expect(edited.body.resource.revision).toBe(2);
    expect(edited.body.unchanged).toBeUndefined();
  });

  it('creates no solution revision and no change row', async () => {
    const problemId = (
      await send(stack.base, agent, 'POST', '/api/problems', problemBody({ title: 'Solution edit target' }))
    ).body.resource.id;
    const id = (
      await send(stack.base, agent, 'POST', '/api/solutions', {
        problem_id: problemId,
        body: 'Raise the inotify limit.',
      })
    ).body.resource.id;
    const changesBefore = await changesOf(id);
    const res = await send(stack.base, agent, 'PATCH', `/api/solutions/${id}`, {
      base_revision: 1,
      body: 'Raise the inotify limit.',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ unchanged: true, change_cursor: null, resource: { id, revision: 1 } });
    expect(await count('SELECT count(*) FROM solution_revisions WHERE solution_id = $1', [id])).toBe(1);
    expect(await changesOf(id)).toBe(changesBefore);
  });
});
