import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHashOf } from '../../core/idempotency.ts';
import type { CommitJob, CommitResult } from '../../core/queue-contract.ts';
import { commitBatch, commitOperation, type BatchOutcome } from '../../worker/jobs/commit.ts';
import { revokeConnection, touchConnection } from '../../db/queries/oauth.ts';
import { admit, newKey, problemBody, type Agent } from '../helpers/client.ts';
import { seedSignedInAccount } from '../helpers/oauth.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let agent: Agent;

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  agent = await admit(stack.base);
});
afterAll(() => stack.close());

/** Who a job was queued by: an identity and its direct credential, or its OAuth connection's grant. */
type Caller = Pick<Agent, 'id' | 'credentialId'>;

function createJob(over: Record<string, unknown>, key = newKey(), caller: Caller = agent): CommitJob {
  const body = problemBody(over);
  return {
    operation: 'create_problem',
    identityId: caller.id,
    credentialId: caller.credentialId,
    scopes: ['knowledge'],
    idempotencyKey: key,
    requestHash: requestHashOf('create_problem', undefined, body),
    requestId: `req_${key}`,
    body,
    redacted: [],
  };
}

const value = (outcome: BatchOutcome | undefined): CommitResult => {
  if (outcome?.status !== 'fulfilled') throw new Error(`no result: ${String(outcome?.status)}`);
  return outcome.value;
};

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await stack.pool.query(sql, params)).rows[0].count);
}

const problemsTitled = (prefix: string) =>
  count(`SELECT count(*) FROM problem_revisions WHERE title LIKE $1 || '%'`, [prefix]);

describe('a batch of writes in one transaction', () => {
  it('commits every write, each with its own receipt and change, in one transaction', async () => {
    const jobs = [1, 2, 3, 4].map((n) => createJob({ title: `Batched write ${n}` }));
    const outcomes = await commitBatch(stack.pool, jobs, { prepared: true });
    const results = outcomes.map(value);
    expect(results.every((r) => r.ok && !r.replayed)).toBe(true);
    const ids = results.map((r) => (r.ok ? r.receipt.resource.id : ''));
    expect(new Set(ids).size).toBe(4);
    const cursors = results.map((r) => (r.ok ? r.receipt.change_cursor : null));
    expect(cursors.every((c) => c !== null)).toBe(true);
    expect(await problemsTitled('Batched write ')).toBe(4);
    // One transaction: every row of the batch carries the same transaction id.
    const xids = await stack.pool.query(
      `SELECT DISTINCT xmin::text FROM operations WHERE idempotency_key = ANY($1::text[])`,
      [jobs.map((j) => j.idempotencyKey)],
    );
    expect(xids.rowCount).toBe(1);
    // Each receipt is the one stored under its key.
    for (const [i, job] of jobs.entries()) {
      const stored = await stack.pool.query(`SELECT receipt FROM operations WHERE idempotency_key = $1`, [
        job.idempotencyKey,
      ]);
      expect(stored.rows[0].receipt.resource.id).toBe(ids[i]);
      expect(stored.rows[0].receipt.change_cursor).toBe(cursors[i]);
    }
  });

  it('commits the others when one write of the batch is refused, and refuses that one as it would alone', async () => {
    const literal = `Error: batch duplicate ${newKey()}`;
    const first = await commitOperation(stack.pool, createJob({ title: 'Refusal original', error_literal: literal }));
    expect(first.ok).toBe(true);
    const jobs = [
      createJob({ title: 'Refusal neighbour 1' }),
      createJob({ title: 'Refusal copy', error_literal: literal }),
      createJob({ title: 'Refusal neighbour 2' }),
      createJob({ title: 'Refusal neighbour 3' }),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    const refused = results[1]!;
    expect(refused.ok === false && refused.error.code).toBe('duplicate_contribution');
    expect(await problemsTitled('Refusal neighbour ')).toBe(3);
    expect(await problemsTitled('Refusal copy')).toBe(0);
    // The refused write's key is not claimed: a retry with it is decided again, not replayed.
    expect(await count(`SELECT count(*) FROM operations WHERE idempotency_key = $1`, [jobs[1]!.idempotencyKey])).toBe(
      0,
    );
  });

  it('of two writes of the same error in one batch, creates one and refuses the other', async () => {
    const literal = `Error: same batch ${newKey()}`;
    const jobs = [
      createJob({ title: 'Twin A', error_literal: literal }),
      createJob({ title: 'Twin B', error_literal: literal }),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(await problemsTitled('Twin ')).toBe(1);
  });

  it('stores each problem of a batch as it would alone: literal, environment, tags and duplicate key', async () => {
    const tag = newKey();
    const jobs = [
      createJob({ title: 'Stored 1', error_literal: `Error: stored one ${tag}`, tags: ['a', 'b'] }),
      createJob({ title: 'Stored 2', environment: { os: 'linux', node: '24' } }),
      createJob({ title: 'Stored 3', error_literal: `Error: stored three ${tag} at /tmp/x.js:1:2`, tags: [] }),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const rows = await stack.pool.query(
      `SELECT r.title, r.error_literal, r.environment, r.tags, r.literal_key, p.current_revision,
              r.literal_key = md5(ak_search_normalize(coalesce(r.error_literal, ''))) AS keyed
         FROM problem_revisions r JOIN problems p ON p.id = r.problem_id
        WHERE r.problem_id = ANY($1::text[]) ORDER BY r.title`,
      [results.map((r) => (r.ok ? r.receipt.resource.id : ''))],
    );
    expect(rows.rows.map(({ literal_key: _, ...row }) => row)).toEqual(
      jobs.map(({ body }) => ({
        title: body.title,
        error_literal: body.error_literal ?? null,
        environment: body.environment ?? {},
        tags: body.tags ?? [],
        current_revision: 1,
        keyed: true,
      })),
    );
  });

  it('of two writes of the same error among others in one batch, creates one and refuses the other', async () => {
    const literal = `Error: same batch among others ${newKey()}`;
    const jobs = [
      createJob({ title: 'Among 1' }),
      createJob({ title: 'Among twin A', error_literal: literal }),
      createJob({ title: 'Among 2', error_literal: `Error: another one ${newKey()}` }),
      createJob({ title: 'Among twin B', error_literal: literal }),
      createJob({ title: 'Among 3' }),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, true]);
    const refused = results[3]!;
    expect(refused.ok === false && refused.error.code).toBe('duplicate_contribution');
    expect(refused.ok === false && refused.error.existing?.id).toBe(results[1]!.ok && results[1]!.receipt.resource.id);
    expect(await problemsTitled('Among ')).toBe(4);
  });

  it('rolls back a batch whose write PostgreSQL refuses, and commits every other write once', async () => {
    // U+0000 cannot be stored in jsonb: the batch fails at its third write, after two were applied and rolled back.
    const jobs = [
      createJob({ title: 'Partial batch 1' }),
      createJob({ title: 'Partial batch 2' }),
      createJob({ title: 'Partial batch 3', environment: { os: 'linux\u0000' } }),
      createJob({ title: 'Partial batch 4' }),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
    expect(results[2]!.ok === false && results[2]!.error.code).toBe('invalid_arguments');
    expect(await problemsTitled('Partial batch ')).toBe(3);
    expect(
      await count(`SELECT count(*) FROM operations WHERE idempotency_key = ANY($1::text[])`, [
        jobs.map((j) => j.idempotencyKey),
      ]),
    ).toBe(3);
  });

  it('run again after it committed (a worker killed before the jobs finished), replays every write: no doubles', async () => {
    const jobs = [1, 2, 3].map((n) => createJob({ title: `Rerun ${n}` }));
    const first = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    const changesBefore = await count('SELECT count(*) FROM changes');
    const again = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(again.every((r) => r.ok && r.replayed)).toBe(true);
    expect(again.map((r) => r.ok && r.receipt.resource.id)).toEqual(first.map((r) => r.ok && r.receipt.resource.id));
    expect(await problemsTitled('Rerun ')).toBe(3);
    expect(await count('SELECT count(*) FROM changes')).toBe(changesBefore);
  });

  it('answers a key reused with another body in the same batch as a mismatch, without failing the batch', async () => {
    const key = newKey();
    const jobs = [createJob({ title: 'Key reuse original' }, key), createJob({ title: 'Key reuse other body' }, key)];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results[0]!.ok).toBe(true);
    expect(results[1]!.ok === false && results[1]!.error.code).toBe('conflict');
    expect(await problemsTitled('Key reuse ')).toBe(1);
  });

  it('starts no transaction once the check before it refuses, a re-run after a refused write included', async () => {
    const literal = `Error: fenced rerun ${newKey()}`;
    const first = await commitOperation(stack.pool, createJob({ title: 'Fenced original', error_literal: literal }));
    expect(first.ok).toBe(true);
    const jobs = [
      createJob({ title: 'Fenced neighbour 1' }),
      createJob({ title: 'Fenced copy', error_literal: literal }),
      createJob({ title: 'Fenced neighbour 2' }),
    ];
    // The batch's first attempt is let through and fails on its duplicate; the fence goes up before the re-runs.
    let checks = 0;
    const fenced = new Error('fenced');
    const beforeTransaction = async () => {
      if (checks++ > 0) throw fenced;
    };
    const outcomes = await commitBatch(stack.pool, jobs, { prepared: true, beforeTransaction });
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason === fenced)).toBe(true);
    expect(await problemsTitled('Fenced neighbour ')).toBe(0);
    expect(
      await count(`SELECT count(*) FROM operations WHERE idempotency_key = ANY($1::text[])`, [
        jobs.map((j) => j.idempotencyKey),
      ]),
    ).toBe(0);
    // Once the check lets them through, the same jobs commit as they would have.
    const later = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(later.map((r) => r.ok)).toEqual([true, false, true]);
  });

  it('fails each write on its own when the database is away, for its job to be retried', async () => {
    const { default: pg } = await import('pg');
    const away = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 2 });
    away.on('error', () => {});
    try {
      const outcomes = await commitBatch(away, [createJob({ title: 'Away 1' }), createJob({ title: 'Away 2' })]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    } finally {
      await away.end();
    }
  });
});

describe('a batch of different writes', () => {
  it('commits creates and edits together, an edit that changes nothing with no change logged', async () => {
    const created = await commitOperation(stack.pool, createJob({ title: 'Mixed base' }));
    if (!created.ok) throw new Error('not created');
    const id = created.receipt.resource.id;
    const edit = (over: Record<string, unknown>): CommitJob => {
      const body = { base_revision: 1, ...over };
      const key = newKey();
      return {
        operation: 'edit_problem',
        identityId: agent.id,
        credentialId: agent.credentialId,
        scopes: ['knowledge'],
        idempotencyKey: key,
        targetId: id,
        requestHash: requestHashOf('edit_problem', id, body),
        requestId: `req_${key}`,
        body,
        redacted: [],
      };
    };
    const jobs = [createJob({ title: 'Mixed new' }), edit({ title: 'Mixed base' }), edit({ title: 'Mixed edited' })];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const [made, unchanged, edited] = results.map((r) => (r.ok ? r.receipt : null));
    expect(made!.change_cursor).not.toBeNull();
    expect(unchanged!.unchanged).toBe(true);
    expect(unchanged!.change_cursor).toBeNull();
    expect(edited!.resource.revision).toBe(2);
    const logged = await stack.pool.query(
      `SELECT cursor::text AS cursor FROM changes WHERE resource_id = $1 AND revision = 2`,
      [id],
    );
    expect(logged.rows.map((r) => r.cursor)).toEqual([edited!.change_cursor]);
    expect(BigInt(made!.change_cursor!)).toBeGreaterThan(0n);
  });
});

/** A write that ends its own credential, as POST /api/credentials/revoke queues it. */
function revokeJob(caller: Caller): CommitJob {
  const key = newKey();
  return {
    operation: 'revoke_own_credential',
    identityId: caller.id,
    credentialId: caller.credentialId,
    scopes: ['edit_own'],
    idempotencyKey: key,
    requestHash: requestHashOf('revoke_own_credential', undefined, {}),
    requestId: `req_${key}`,
    body: {},
    redacted: [],
  };
}

/** Revokes the credential as the revoke route's job commits it. */
async function revoke(caller: Caller): Promise<void> {
  expect((await commitOperation(stack.pool, revokeJob(caller))).ok).toBe(true);
}

/** An account with a live OAuth connection: the caller its tool writes are queued as. */
async function connectedCaller(): Promise<Caller> {
  const { identityId } = await seedSignedInAccount(stack.pool, `conn-${newKey().slice(-12)}`);
  const grantId = `grant-${newKey().slice(-12)}`;
  await stack.pool.query(
    `INSERT INTO oauth_connections (grant_id, identity_id, client_id, client_name, scopes)
     VALUES ($1, $2, 'client-test', 'Test Chat Client', '{knowledge}')`,
    [grantId, identityId],
  );
  return { id: identityId, credentialId: grantId };
}

const refusalOf = (result: CommitResult) =>
  result.ok ? null : { code: result.error.code, reason: result.error.reason };

describe('a write whose caller can no longer act when it commits', () => {
  it('is refused alone in its batch when its credential was revoked after it was queued; the others commit together', async () => {
    const revoked = await admit(stack.base);
    const jobs = [
      createJob({ title: 'Beside revoked 1' }),
      createJob({ title: 'Under revoked credential' }, newKey(), revoked),
      createJob({ title: 'Beside revoked 2' }),
      createJob({ title: 'Beside revoked 3' }),
    ];
    await revoke(revoked);
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    expect(refusalOf(results[1]!)).toEqual({ code: 'invalid_or_revoked_credential', reason: 'revoked' });
    expect(results[1]!.ok === false && results[1]!.error.message).toBe(
      'The credential was revoked before this operation committed.',
    );
    expect(await problemsTitled('Beside revoked ')).toBe(3);
    expect(await problemsTitled('Under revoked credential')).toBe(0);
    // Refused inside the batch, not by rolling it back: the others are one transaction.
    const xids = await stack.pool.query(
      `SELECT DISTINCT xmin::text FROM operations WHERE idempotency_key = ANY($1::text[])`,
      [[0, 2, 3].map((i) => jobs[i]!.idempotencyKey)],
    );
    expect(xids.rowCount).toBe(1);
    // The refused write claimed no key: sent again (with a live credential) it is decided again.
    expect(await count(`SELECT count(*) FROM operations WHERE idempotency_key = $1`, [jobs[1]!.idempotencyKey])).toBe(
      0,
    );
  });

  it('is refused with connection_revoked when its OAuth connection was revoked after it was queued', async () => {
    const connected = await connectedCaller();
    const jobs = [
      createJob({ title: 'Beside a revoked connection 1' }),
      createJob({ title: 'Under a revoked connection' }, newKey(), connected),
      createJob({ title: 'Under a live connection' }, newKey(), await connectedCaller()),
      createJob({ title: 'Beside a revoked connection 2' }),
    ];
    // What /account's revoke does.
    expect(await revokeConnection(stack.pool, connected.credentialId, connected.id)).toBe(true);
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    expect(refusalOf(results[1]!)).toEqual({ code: 'invalid_or_revoked_credential', reason: 'connection_revoked' });
    expect(await problemsTitled('Under a revoked connection')).toBe(0);
    expect(await problemsTitled('Under a live connection')).toBe(1);
  });

  it('is refused with expired when its credential expired after it was queued', async () => {
    const expiring = await admit(stack.base);
    const job = createJob({ title: 'Under an expired credential' }, newKey(), expiring);
    await stack.pool.query(`UPDATE credentials SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.credentialId,
    ]);
    expect(refusalOf(await commitOperation(stack.pool, job))).toEqual({
      code: 'invalid_or_revoked_credential',
      reason: 'expired',
    });
    expect(await problemsTitled('Under an expired credential')).toBe(0);
  });

  it('renews nothing when its credential expired after a rotation was queued', async () => {
    const expiring = await admit(stack.base);
    const key = newKey();
    const body = { epoch: 1, credential_hash: `sha256:${'e'.repeat(64)}` };
    const rotation: CommitJob = {
      operation: 'rotate_own_credential',
      identityId: expiring.id,
      credentialId: expiring.credentialId,
      scopes: ['edit_own'],
      idempotencyKey: key,
      requestHash: requestHashOf('rotate_own_credential', undefined, body),
      requestId: `req_${key}`,
      body,
      redacted: [],
    };
    await stack.pool.query(`UPDATE credentials SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.credentialId,
    ]);
    expect(refusalOf(await commitOperation(stack.pool, rotation))).toEqual({
      code: 'invalid_or_revoked_credential',
      reason: 'expired',
    });
    expect(await count(`SELECT count(*) FROM credentials WHERE identity_id = $1`, [expiring.id])).toBe(1);
  });

  it('is refused after a write of its batch revoked its credential, as it would be alone', async () => {
    const caller = await admit(stack.base);
    const jobs = [
      createJob({ title: 'Before its revocation' }, newKey(), caller),
      revokeJob(caller),
      createJob({ title: 'After its revocation' }, newKey(), caller),
      createJob({ title: 'Beside its revocation' }),
      createJob({ title: 'After its revocation, again' }, newKey(), caller),
    ];
    const results = (await commitBatch(stack.pool, jobs, { prepared: true })).map(value);
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true, false]);
    for (const i of [2, 4])
      expect(refusalOf(results[i]!)).toEqual({ code: 'invalid_or_revoked_credential', reason: 'revoked' });
    // Refused inside the batch: the writes it commits are one transaction.
    const xids = await stack.pool.query(
      `SELECT DISTINCT xmin::text FROM operations WHERE idempotency_key = ANY($1::text[])`,
      [[0, 1, 3].map((i) => jobs[i]!.idempotencyKey)],
    );
    expect(xids.rowCount).toBe(1);
    expect(await problemsTitled('Before its revocation')).toBe(1);
    expect(await problemsTitled('After its revocation')).toBe(0);
  });

  it('does not hold up a tool request of its connection: the last-used stamp passes over a locked row', async () => {
    const connected = await connectedCaller();
    const commit = await stack.pool.connect();
    try {
      await commit.query('BEGIN');
      // What a commit batch's caller check holds until its COMMIT.
      await commit.query('SELECT 1 FROM oauth_connections WHERE grant_id = $1 FOR SHARE', [connected.credentialId]);
      const touched = touchConnection(stack.pool, connected.credentialId).then(() => 'done');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited'), 2000));
      expect(await Promise.race([touched, waited])).toBe('done');
    } finally {
      await commit.query('COMMIT');
      commit.release();
    }
  });

  it('still answers its receipt when it committed before the revocation and runs again', async () => {
    const caller = await admit(stack.base);
    const job = createJob({ title: 'Committed before its revocation' }, newKey(), caller);
    const first = await commitOperation(stack.pool, job);
    if (!first.ok) throw new Error('not committed');
    await revoke(caller);
    // A worker killed after the commit but before the job finished: the job runs again.
    const again = await commitOperation(stack.pool, job);
    expect(again).toMatchObject({ ok: true, replayed: true, receipt: { resource: { id: first.receipt.resource.id } } });
  });
});
