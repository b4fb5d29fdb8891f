/**
 * Text no record may hold, besides NUL (test/faults/nul-character.test.ts):
 * a lone UTF-16 surrogate, which PostgreSQL's jsonb refuses (a tag or an
 * environment value with one failed the commit on every attempt and came back
 * as 503 "retry later", forever); bytes that are not UTF-8, which were stored
 * as U+FFFD unseen; and control characters other than tab, line feed and
 * carriage return, which every terminal printing the record would replay;
 * and the bidirectional controls, which make a command read differently from
 * what a reader copies ("Trojan Source"). Each is a 400 in the Error shape
 * naming the field, and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admit, errorOf, newKey, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack();
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

const operations = async () =>
  Number((await stack.pool.query<{ n: string }>('SELECT count(*) AS n FROM operations')).rows[0]!.n);

describe('a lone surrogate in a write', () => {
  it.each([
    ['a tag', problemBody({ tags: ['ok', 'bad\ud800'] }), 'tags.1'],
    ['an environment value', problemBody({ environment: { os: '\udc00linux' } }), 'environment.os'],
    ['an environment key', problemBody({ environment: { 'o\ud83ds': 'linux' } }), 'environment.o\ud83ds'],
    ['the title', problemBody({ title: 'ENOSPC while building \ud800' }), 'title'],
  ])('in %s is 400 malformed_text naming the field, again on a retry', async (_, body, field) => {
    const before = await operations();
    const key = newKey();
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await send(stack.base, agent, 'POST', '/api/problems', body, { key });
      expect(res.status).toBe(400);
      expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'malformed_text', field });
    }
    expect(await operations()).toBe(before);
  });

  it('is accepted as part of a pair (an emoji written as two escapes)', async () => {
    const res = await send(stack.base, agent, 'POST', '/api/discussions', {
      title: 'Logs print \ud83d\ude00 where the status should be',
      body: 'b',
    });
    expect(res.status).toBe(201);
  });
});

describe('bytes that are not UTF-8 in a body', () => {
  it('are 400 malformed_text, not stored as U+FFFD', async () => {
    const before = await operations();
    const json = Buffer.from('{"title":"Caf\u00e9 fails","body":"b"}');
    const bytes = Buffer.concat([json.subarray(0, 13), Buffer.from([0xc3, 0x28]), json.subarray(15)]);
    const res = await fetch(`${stack.base}/api/discussions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': newKey(),
        authorization: `Bearer ${agent.secret}`,
      },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', reason: 'malformed_text' });
    expect(await operations()).toBe(before);
  });
});

describe('a control character', () => {
  it.each([
    ['an ANSI colour code in the title', problemBody({ title: '\u001b[31mENOSPC\u001b[0m while building' }), 'title'],
    ['a bell in the body', problemBody({ body: 'The watcher rings \u0007 and stops.' }), 'body'],
    ['DEL in the product', problemBody({ product: 'web\u007fpack' }), 'product'],
    ['a C1 control (CSI) in a tag', problemBody({ tags: ['\u009b2J'] }), 'tags.0'],
    ['a form feed in an environment value', problemBody({ environment: { os: 'linux\f' } }), 'environment.os'],
  ])('as %s is 400 control_character naming the field', async (_, body, field) => {
    const before = await operations();
    const res = await send(stack.base, agent, 'POST', '/api/problems', body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'control_character', field });
    expect(res.body.error.hint).toMatch(/ANSI colour codes/);
    expect(await operations()).toBe(before);
  });

  it('in the search query is 400 control_character naming q', async () => {
    const res = await fetch(`${stack.base}/api/search?q=${encodeURIComponent('\u001b[31merror\u001b[0m ENOSPC')}`);
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({
      code: 'invalid_arguments',
      reason: 'control_character',
      field: 'q',
    });
  });

  it('is not tab, line feed or carriage return: pasted multi-line output is stored as sent', async () => {
    const literal = 'Error: ENOSPC: System limit\r\n\tat FSWatcher.start (node:internal/fs/watchers:247:19)';
    const res = await send(stack.base, agent, 'POST', '/api/problems', problemBody({ error_literal: literal }));
    expect(res.status).toBe(201);
    const id = res.body.resource.id as string;
    const { rows } = await stack.pool.query<{ error_literal: string }>(
      'SELECT r.error_literal FROM problems p JOIN problem_revisions r ON r.problem_id = p.id AND r.revision = p.current_revision WHERE p.id = $1',
      [id],
    );
    expect(rows[0]?.error_literal).toBe(literal);
  });
});

describe('a bidirectional control', () => {
  it.each([
    [
      'an override in a solution-like command',
      problemBody({ body: 'Run `echo "ok\u202e ;rm -rf ~\u202c"` first.' }),
      'body',
    ],
    ['an isolate in the product', problemBody({ product: 'pg\u2067' }), 'product'],
    ['an embedding in a tag', problemBody({ tags: ['\u202bnode'] }), 'tags.0'],
  ])('as %s is 400 bidi_control naming the field', async (_, body, field) => {
    const before = await operations();
    const res = await send(stack.base, agent, 'POST', '/api/problems', body);
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'invalid_arguments', reason: 'bidi_control', field });
    expect(await operations()).toBe(before);
  });

  it('is not a right-to-left script or its marks: Hebrew with U+200F is stored as sent', async () => {
    const title = 'שגיאה\u200f: ENOSPC while building';
    const res = await send(stack.base, agent, 'POST', '/api/discussions', { title, body: 'b' });
    expect(res.status).toBe(201);
  });
});
