/**
 * A write queued under a credential or OAuth connection that is revoked
 * before the write commits is refused at commit, with the 401 the API
 * gives a revoked credential at request time, and nothing of it stays:
 * no record, no claimed key. Every revocation here goes through its real
 * route. The worker is stopped while the write waits; a revocation that
 * goes through the commit queue itself is put ahead of the waiting write,
 * as when the write's attempt is retried later or another worker commits
 * the revocation first.
 */
import type { Job, Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialHash, sha256Hex } from '../../core/hash.ts';
import { COMMIT_QUEUE } from '../../core/queue-contract.ts';
import { createQueue, queueBackendOf } from '../../infra/queues.ts';
import { admit, errorOf, eventually, newKey, newSecret, send, type Agent } from '../helpers/client.ts';
import { connect, mcpPost, seedSignedInAccount, toolCall } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let queue: Queue;

beforeAll(async () => {
  stack = await startStack({}, { worker: false, originFromPort: true });
  queue = createQueue(queueBackendOf(stack.config), COMMIT_QUEUE);
});
afterAll(async () => {
  await queue?.close();
  await stack?.close();
});

/** The commit job of the write sent with this key, once the API has queued it. */
const queuedJob = (key: string): Promise<Job> =>
  eventually(async () => (await queue.getWaiting()).find((job) => job.data.idempotencyKey === key));

/** Moves a waiting job behind every job queued without a priority: the worker takes those first. */
const putLast = (job: Job) => job.changePriority({ priority: 1 });

const discussionsTitled = async (title: string) =>
  Number((await stack.pool.query('SELECT count(*) FROM discussions WHERE title = $1', [title])).rows[0].count);
const claimedKeys = async (key: string) =>
  Number((await stack.pool.query('SELECT count(*) FROM operations WHERE idempotency_key = $1', [key])).rows[0].count);

/** A discussion sent and left waiting for its commit (the worker is stopped), with the job it queued. */
async function queueDiscussion(agent: Agent, title: string, key = newKey()) {
  const answer = send(
    stack.base,
    agent,
    'POST',
    '/api/discussions',
    { title, body: 'Queued before the revocation.' },
    { key },
  );
  return { key, answer, job: await queuedJob(key) };
}

describe('a direct credential revoked while its write waits in the commit queue', () => {
  it('refuses the write at commit with 401 revoked and its recovery, and commits nothing of it', async () => {
    const agent = await admit(stack.base);
    const title = 'Queued under a credential revoked before it committed';
    const write = await queueDiscussion(agent, title);
    // The revocation is queued after the write; the write's attempt comes after it.
    const revokeKey = newKey();
    const revoke = send(stack.base, agent, 'POST', '/api/credentials/revoke', {}, { key: revokeKey });
    await queuedJob(revokeKey);
    await putLast(write.job);
    await stack.startWorker();
    try {
      expect((await revoke).status).toBe(201);
      const refused = await write.answer;
      expect(refused.status).toBe(401);
      expect(errorOf(refused.body)).toMatchObject({
        code: 'invalid_or_revoked_credential',
        reason: 'revoked',
        message: 'The credential was revoked before this operation committed.',
        recovery: {
          next_action: 'authentication_required',
          human_action_required: false,
          help: '/agent-help/authentication.json',
          retry: { method: 'GET', path: '/api/whoami' },
        },
      });
      expect(await discussionsTitled(title)).toBe(0);
      expect(await claimedKeys(write.key)).toBe(0);
    } finally {
      await stack.stopWorker();
    }
  });

  it('commits the refused write when it is sent again with the credential that replaced it, under the same key', async () => {
    const agent = await admit(stack.base, 'pseudonymous', { scopes: ['post', 'edit_own'] });
    const title = 'Queued under a credential rotated before it committed';
    const write = await queueDiscussion(agent, title);
    const next = newSecret();
    const rotateKey = newKey();
    const rotate = send(
      stack.base,
      agent,
      'POST',
      '/api/credentials/rotate',
      { epoch: 1, credential_hash: credentialHash(next) },
      { key: rotateKey },
    );
    await queuedJob(rotateKey);
    await putLast(write.job);
    await stack.startWorker();
    try {
      expect((await rotate).status).toBe(201);
      const refused = await write.answer;
      expect(refused.status).toBe(401);
      expect(errorOf(refused.body)).toMatchObject({ code: 'invalid_or_revoked_credential', reason: 'revoked' });
      // The refusal claimed no key: the same write with the new secret is decided again, not answered the refusal.
      const again = await send(
        stack.base,
        { ...agent, secret: next },
        'POST',
        '/api/discussions',
        { title, body: 'Queued before the revocation.' },
        { key: write.key },
      );
      expect(again.status).toBe(201);
      expect(await discussionsTitled(title)).toBe(1);
    } finally {
      await stack.stopWorker();
    }
  });
});

describe('an OAuth connection revoked on /account while its tool write waits in the commit queue', () => {
  it('refuses the tool write at commit with connection_revoked and commits nothing of it', async () => {
    const { cookie, identityId } = await seedSignedInAccount(stack.pool, `revoked-${newKey().slice(-8)}`);
    const { tokens } = await connect(stack.base, cookie);
    const { grant_id: grantId } = (
      await stack.pool.query('SELECT grant_id FROM oauth_connections WHERE identity_id = $1', [identityId])
    ).rows[0];
    const key = newKey();
    const title = 'Tool write under a connection revoked before it committed';
    const call = mcpPost(
      stack.base,
      tokens.access_token!,
      toolCall('create_discussion', { idempotency_key: key, title, body: 'Queued before the revocation.' }),
    );
    await queuedJob(key);
    // The person revokes the connection on /account, as the page's form does.
    const session = cookie.slice(cookie.indexOf('=') + 1);
    const revoked = await fetch(`${stack.base}/account/connections/${grantId}/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: stack.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: sha256Hex(`csrf\0${session}`) }).toString(),
    });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/account?done=revoked');
    await stack.startWorker();
    try {
      const answer = await call;
      expect(answer.status).toBe(200);
      expect(answer.body.result.isError).toBe(true);
      expect(errorOf(answer.body.result.structuredContent)).toMatchObject({
        code: 'invalid_or_revoked_credential',
        reason: 'connection_revoked',
        recovery: {
          next_action: 'verify_oauth_connection',
          human_action_required: true,
          help: '/docs/chat',
          retry: { method: 'POST', path: '/mcp/participate', tool: 'whoami' },
        },
      });
      expect(await discussionsTitled(title)).toBe(0);
      expect(await claimedKeys(key)).toBe(0);
    } finally {
      await stack.stopWorker();
    }
  });
});
