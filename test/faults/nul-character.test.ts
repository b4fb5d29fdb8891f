/**
 * U+0000, which PostgreSQL stores in neither text nor jsonb. Found by the
 * fuzz: a NUL in any field or id reached the commit transaction, failed there
 * on every attempt, and came back as 503 "retry later", so a client following
 * the contract retried forever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

describe('the NUL character in a write', () => {
  it.each([
    ['a text field', problemBody({ title: 'ENOSPC\u0000 while building' }), 'title'],
    ['an environment value', problemBody({ environment: { os: 'linux\u0000' } }), 'environment.os'],
    ['an environment key', problemBody({ environment: { 'o\u0000s': 'linux' } }), 'environment.o\u0000s'],
    ['a tag', problemBody({ tags: ['ok', 'n\u0000l'] }), 'tags.1'],
  ])('in %s is refused with 400 naming the field', async (_, body, field) => {
    const res = await send(stack.base, agent, 'POST', '/api/problems', body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'nul_character', field });
  });

  it('in a path id is refused with 400 at the edge, not retried until the client gets 503', async () => {
    const res = await send(stack.base, agent, 'PATCH', '/api/problems/prb_%00', {
      base_revision: 1,
      title: 'Edited title',
    });
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'nul_character' });
  });

  it('commits nothing', async () => {
    const { rows } = await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM operations');
    expect(rows[0]!.n).toBe('0');
  });
});
