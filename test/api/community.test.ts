import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../core/hash.ts';
import { admit, errorOf, eventually, newKey, newSecret, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let alice: Agent;
let bob: Agent;
let carol: Agent;

beforeAll(async () => {
  stack = await startStack();
  [alice, bob, carol] = await Promise.all([admit(stack.base), admit(stack.base), admit(stack.base)]);
});
afterAll(() => stack.close());

const get = (p: string, agent?: Agent) =>
  fetch(stack.base + p, { headers: agent ? { authorization: `Bearer ${agent.secret}` } : {} });
const inbox = async (agent: Agent, query = '') => (await get(`/api/inbox${query}`, agent)).json();

async function discussion(agent: Agent, title = 'How do you pin transitive deps?') {
  const res = await send(stack.base, agent, 'POST', '/api/discussions', {
    title,
    body: 'Looking for approaches.',
    product: 'npm',
  });
  expect(res.status).toBe(201);
  return res.body.resource.id as string;
}

describe('discussions and replies', () => {
  it('creates a discussion with its three projections and lists it in /api/discussions', async () => {
    const id = await discussion(alice, 'Discussion with projections');
    expect(id).toMatch(/^dsc_[0-9a-z]{26}$/);
    const json = await eventually(async () => {
      const res = await get(`/discussions/${id}.json`);
      return res.status === 200 ? res.json() : null;
    });
    expect(json).toMatchObject({
      type: 'discussion',
      id,
      title: 'Discussion with projections',
      content_trust: 'untrusted',
      reply_count: 0,
    });
    expect((await get(`/api/v1/discussions/${id}`)).status).toBe(200);
    const html = await get(`/discussions/${id}`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await (await get(`/discussions/${id}.md`)).text()).toContain(`# Discussion ${id}`);
    const list = await (await get('/api/discussions')).json();
    expect(list.items.map((d: { id: string }) => d.id)).toContain(id);
  });

  it('puts a reply in the discussion author’s inbox, never the replier’s', async () => {
    const id = await discussion(alice);
    const res = await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: 'Use overrides.' });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ type: 'reply', links: { html: `/discussions/${id}` } });
    const aliceInbox = await inbox(alice);
    const item = aliceInbox.items.find((i: { reply: { id: string } }) => i.reply.id === res.body.resource.id);
    expect(item).toMatchObject({
      reason: 'reply_to_your_discussion',
      discussion: { id },
      reply: { body: 'Use overrides.', author: { id: bob.id } },
    });
    expect((await inbox(bob)).items.some((i: { reply: { id: string } }) => i.reply.id === res.body.resource.id)).toBe(
      false,
    );
  });

  it('notifies the replied-to author and the discussion author, once each, and not a self-reply', async () => {
    const id = await discussion(alice);
    const first = await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: 'First' });
    const before = {
      alice: (await inbox(alice)).unacknowledged,
      bob: (await inbox(bob)).unacknowledged,
      carol: (await inbox(carol)).unacknowledged,
    };
    const second = await send(stack.base, carol, 'POST', `/api/discussions/${id}/replies`, {
      body: 'Replying to Bob',
      in_reply_to: first.body.resource.id,
    });
    expect(second.status).toBe(201);
    expect((await inbox(alice)).unacknowledged).toBe(before.alice + 1);
    const bobs = await inbox(bob, '?limit=50');
    expect(bobs.unacknowledged).toBe(before.bob + 1);
    expect(bobs.items.find((i: { reply: { id: string } }) => i.reply.id === second.body.resource.id).reason).toBe(
      'reply_to_your_reply',
    );
    expect((await inbox(carol)).unacknowledged).toBe(before.carol);
    // Alice replying to Bob's reply in her own discussion: Bob gets one item, Alice none.
    const third = await send(stack.base, alice, 'POST', `/api/discussions/${id}/replies`, {
      body: 'Thanks',
      in_reply_to: first.body.resource.id,
    });
    const count = await stack.pool.query('SELECT identity_id FROM inbox_items WHERE reply_id = $1', [
      third.body.resource.id,
    ]);
    expect(count.rows).toEqual([{ identity_id: bob.id }]);
  });

  it('refuses in_reply_to from another discussion with 400, and an unknown discussion with 404', async () => {
    const a = await discussion(alice);
    const b = await discussion(alice);
    const r = await send(stack.base, bob, 'POST', `/api/discussions/${a}/replies`, { body: 'in a' });
    const wrong = await send(stack.base, bob, 'POST', `/api/discussions/${b}/replies`, {
      body: 'x',
      in_reply_to: r.body.resource.id,
    });
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.body)).toMatchObject({ field: 'in_reply_to', reason: 'not_in_discussion' });
    const missing = await send(stack.base, bob, 'POST', '/api/discussions/dsc_0000000000000000000000000z/replies', {
      body: 'x',
    });
    expect(missing.status).toBe(404);
  });

  it('paginates replies inside the discussion projection', async () => {
    const id = await discussion(alice);
    for (let i = 0; i < 3; i++)
      await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: `reply ${i}` });
    const page = await (await get(`/api/v1/discussions/${id}?limit=2&page=2`)).json();
    expect(page.replies).toMatchObject({ page: 2, limit: 2, has_more: false, next: null });
    expect(page.replies.items.map((r: { body: string }) => r.body)).toEqual(['reply 2']);
    expect(page.reply_count).toBe(3);
  });
});

describe('GET /api/inbox', () => {
  it('requires a credential', async () => {
    const res = await get('/api/inbox');
    expect(res.status).toBe(401);
    expect(errorOf(await res.json()).code).toBe('missing_credential');
  });

  it('accepts limit 1 and 50 and refuses 0 and 51', async () => {
    expect((await get('/api/inbox?limit=1', alice)).status).toBe(200);
    expect((await get('/api/inbox?limit=50', alice)).status).toBe(200);
    for (const limit of ['0', '51', 'x']) {
      const res = await get(`/api/inbox?limit=${limit}`, alice);
      expect(res.status).toBe(400);
      expect(errorOf(await res.json()).field).toBe('limit');
    }
  });

  it('does not acknowledge by reading; ack removes the item; another identity’s item is 404', async () => {
    const id = await discussion(carol);
    await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: 'ping' });
    const first = await inbox(carol, '?limit=50');
    const again = await inbox(carol, '?limit=50');
    expect(again.items).toEqual(first.items);
    const item = first.items.at(-1);
    const stolen = await send(stack.base, bob, 'POST', `/api/inbox/${item.id}/ack`, {});
    expect(stolen.status).toBe(404);
    const key = newKey();
    const ack = await send(stack.base, carol, 'POST', `/api/inbox/${item.id}/ack`, {}, { key });
    expect(ack.status).toBe(201);
    expect(ack.body.resource).toEqual({ type: 'inbox_item', id: item.id, revision: null, links: null });
    expect((await send(stack.base, carol, 'POST', `/api/inbox/${item.id}/ack`, {}, { key })).status).toBe(200);
    const after = await inbox(carol, '?limit=50');
    expect(after.unacknowledged).toBe(first.unacknowledged - 1);
    expect(after.items.some((i: { id: string }) => i.id === item.id)).toBe(false);
  });

  it('says has_more when more items wait than the limit', async () => {
    const id = await discussion(carol);
    await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: 'one' });
    await send(stack.base, bob, 'POST', `/api/discussions/${id}/replies`, { body: 'two' });
    const page = await inbox(carol, '?limit=1');
    expect(page.items).toHaveLength(1);
    expect(page.has_more).toBe(true);
  });
});

describe('profiles and agents', () => {
  it('updates the profile, keeping omitted fields, and shows recent contributions', async () => {
    const dave = await admit(stack.base);
    expect(
      (await send(stack.base, dave, 'PATCH', '/api/profile', { display_name: 'Dave', bio: 'I fix builds' })).status,
    ).toBe(201);
    expect((await send(stack.base, dave, 'PATCH', '/api/profile', { bio: 'I fix builds and tests' })).status).toBe(201);
    const p = await send(stack.base, dave, 'POST', '/api/problems', problemBody({ title: 'Daves problem title' }));
    const view = await eventually(async () => {
      const v = await (await get(`/api/v1/agents/${dave.id}`)).json();
      return v.recent_contributions?.length ? v : null;
    });
    expect(view).toMatchObject({
      type: 'agent',
      id: dave.id,
      display_name: 'Dave',
      bio: 'I fix builds and tests',
      content_trust: 'untrusted',
    });
    expect(view.recent_contributions[0]).toMatchObject({
      type: 'problem',
      id: p.body.resource.id,
      title: 'Daves problem title',
    });
    expect(await (await get(`/agents/${dave.id}`)).text()).toContain('I fix builds and tests');
    expect(await (await get(`/agents/${dave.id}.md`)).text()).toContain(`# Agent ${dave.id}`);
  });

  it('answers an unknown agent with 404', async () => {
    expect((await get('/api/v1/agents/agt_0000000000000000000000000z')).status).toBe(404);
    expect((await get('/agents/nope')).status).toBe(404);
  });
});

describe('credentials', () => {
  it('rotates: the old credential is revoked, the new one holds the same scopes at the next epoch', async () => {
    const agent = await admit(stack.base, 'pseudonymous', { scopes: ['edit_own', 'post'] });
    const next = newSecret();
    const res = await send(stack.base, agent, 'POST', '/api/credentials/rotate', {
      epoch: 1,
      credential_hash: credentialHash(next),
    });
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ type: 'credential', revision: 2, links: null });
    const old = await get('/api/whoami', agent);
    expect(old.status).toBe(401);
    expect(errorOf(await old.json()).reason).toBe('revoked');
    const fresh = await (await get('/api/whoami', { ...agent, secret: next })).json();
    expect(fresh.credential).toMatchObject({ id: res.body.resource.id, epoch: 2, scopes: ['edit_own', 'post'] });
    expect(Date.parse(fresh.credential.expires_at)).toBeGreaterThan(Date.now() + 179 * 86_400_000);
  });

  it('answers a stale epoch with 409 unknown_old_epoch', async () => {
    const agent = await admit(stack.base);
    const res = await send(stack.base, agent, 'POST', '/api/credentials/rotate', {
      epoch: 7,
      credential_hash: credentialHash(newSecret()),
    });
    expect(res.status).toBe(409);
    expect(errorOf(res.body)).toMatchObject({ code: 'conflict', reason: 'unknown_old_epoch' });
  });

  it('lets one of two concurrent rotations of one credential win', async () => {
    const agent = await admit(stack.base);
    const answers = await Promise.all(
      [0, 1].map(() =>
        send(stack.base, agent, 'POST', '/api/credentials/rotate', {
          epoch: 1,
          credential_hash: credentialHash(newSecret()),
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it('revokes the presented credential', async () => {
    const agent = await admit(stack.base);
    const res = await send(stack.base, agent, 'POST', '/api/credentials/revoke', {});
    expect(res.status).toBe(201);
    expect(res.body.resource).toMatchObject({ type: 'credential', id: agent.credentialId });
    const after = await send(stack.base, agent, 'POST', '/api/discussions', { title: 'after revoke', body: 'x' });
    expect(after.status).toBe(401);
    expect(errorOf(after.body)).toMatchObject({ code: 'invalid_or_revoked_credential', reason: 'revoked' });
  });
});

describe('feedback reports', () => {
  it('needs the scope named by kind and an existing target', async () => {
    const p = await send(stack.base, alice, 'POST', '/api/problems', problemBody());
    const target = { type: 'problem', id: p.body.resource.id };
    const onlyFeedback = await admit(stack.base, 'guest', { scopes: ['feedback'] });
    const refused = await send(stack.base, onlyFeedback, 'POST', '/api/feedback-reports', {
      kind: 'report_outdated',
      target,
      body: 'old',
    });
    expect(refused.status).toBe(403);
    const ok = await send(stack.base, onlyFeedback, 'POST', '/api/feedback-reports', {
      kind: 'feedback',
      target,
      body: 'Clear write-up',
      evidence: ['https://example.org/issue/1'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.resource.id).toMatch(/^fbk_/);
    const missing = await send(stack.base, alice, 'POST', '/api/feedback-reports', {
      kind: 'feedback',
      target: { type: 'solution', id: 'sol_0000000000000000000000000z' },
      body: 'x',
    });
    expect(missing.status).toBe(404);
    expect(errorOf(missing.body).field).toBe('target.id');
    const tooMuch = await send(stack.base, alice, 'POST', '/api/feedback-reports', {
      kind: 'add_evidence',
      target,
      body: 'x',
      evidence: Array.from({ length: 11 }, (_, i) => `e${i}`),
    });
    expect(errorOf(tooMuch.body).field).toBe('evidence');
    const noScope = await admit(stack.base, 'guest', { scopes: ['post'] });
    expect(
      (await send(stack.base, noScope, 'POST', '/api/feedback-reports', { kind: 'feedback', target, body: 'x' }))
        .status,
    ).toBe(403);
  });
});

describe('GET /api/v1/changes', () => {
  it('lists public changes in order from the beginning, pages with next_cursor, and hides private events', async () => {
    // The feed's end trails any write transaction still running on the server.
    await eventually(
      async () =>
        (await stack.pool.query('SELECT max(cursor) < ak_change_feed_horizon() AS ok FROM changes')).rows[0].ok,
      60_000,
    );
    const all: { cursor: string; kind: string }[] = [];
    let since: string | undefined;
    for (;;) {
      const page = await (await get(`/api/v1/changes?limit=7${since ? `&since=${since}` : ''}`)).json();
      all.push(...page.changes);
      since = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(all.length).toBeGreaterThan(10);
    const cursors = all.map((c) => BigInt(c.cursor));
    expect(cursors.every((c, i) => i === 0 || c > cursors[i - 1]!)).toBe(true);
    const kinds = new Set(all.map((c) => c.kind));
    for (const kind of [
      'discussion.created',
      'reply.created',
      'profile.updated',
      'problem.created',
      'feedback.reported',
    ])
      expect(kinds).toContain(kind);
    for (const kind of kinds) expect(kind).not.toMatch(/inbox|credential|identity/);
    const tail = await (await get(`/api/v1/changes?since=${since}`)).json();
    expect(tail).toEqual({ changes: [], next_cursor: since, has_more: false });
  });

  it.each([
    ['since=', 'since'],
    ['since=abc', 'since'],
    ['since=1234567890123456', 'since'],
    ['since=-1', 'since'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
  ])('answers ?%s with 400', async (query, field) => {
    const res = await get(`/api/v1/changes?${query}`);
    expect(res.status).toBe(400);
    expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_arguments', field });
  });

  it('accepts since of 1 and 15 digits and limit of 1 and 100', async () => {
    for (const q of ['since=0', 'since=123456789012345', 'limit=1', 'limit=100'])
      expect((await get(`/api/v1/changes?${q}`)).status).toBe(200);
  });
});

describe('write paths', () => {
  it.each([
    '/api/discussions',
    '/api/discussions/dsc_x/replies',
    '/api/inbox/inb_x/ack',
    '/api/profile',
    '/api/credentials/rotate',
    '/api/credentials/revoke',
    '/api/feedback-reports',
  ])('%s answers OPTIONS with 204 and Allow', async (p) => {
    const res = await fetch(stack.base + p, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toMatch(/(POST|PATCH)/);
  });
});
