/**
 * `npm run ops -- refresh-trust`: records from before trust existed (no
 * stored trust) get it, a disputed one logs its change, and running it again
 * changes nothing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAllTrust } from '../../worker/jobs/refresh-trust.ts';
import { admit, problemBody, send, type Agent } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
let stack: Stack;
let solutionId: string;
let nextAddress = 1;

const agentFrom = (): Promise<Agent> =>
  admit(stack.base, 'pseudonymous', {}, { 'x-forwarded-for': `192.0.2.${nextAddress++}` });

beforeAll(async () => {
  stack = await startStack({ TRUST_PROXY: 'true' });
  const author = await agentFrom();
  const problem = await send(
    stack.base,
    author,
    'POST',
    '/api/problems',
    problemBody({ title: 'Trust refresh target' }),
  );
  const solution = await send(stack.base, author, 'POST', '/api/solutions', {
    problem_id: problem.body.resource.id,
    body: 'Refresh me',
  });
  solutionId = solution.body.resource.id;
  for (let i = 0; i < 2; i++) {
    await send(stack.base, await agentFrom(), 'POST', `/api/solutions/${solutionId}/outcomes`, {
      signal: 'did_not_work',
    });
  }
});
afterAll(() => stack.close());

const stored = async () =>
  (await stack.pool.query('SELECT record_type, disputed, bound FROM record_trust WHERE record_id = $1', [solutionId]))
    .rows[0];
const disputeChanges = async () =>
  Number(
    (
      await stack.pool.query(`SELECT count(*) FROM changes WHERE resource_id = $1 AND kind = 'solution.disputed'`, [
        solutionId,
      ])
    ).rows[0].count,
  );

describe('refresh-trust', () => {
  it('stores the trust of records that have none, logging a dispute it finds', async () => {
    expect(await stored()).toMatchObject({ disputed: true });
    // As a database migrated from before trust: no stored trust, no dispute changes.
    await stack.pool.query('DELETE FROM record_trust');
    await stack.pool.query(`DELETE FROM changes WHERE kind LIKE '%disputed'`);
    const result = await refreshAllTrust(stack.pool);
    expect(result).toEqual({ records: 2, flipped: 1 });
    expect(await stored()).toMatchObject({ record_type: 'solution', disputed: true });
    expect(await disputeChanges()).toBe(1);
  });

  it('changes nothing when run again, from the operator CLI', async () => {
    const { stdout } = await run(process.execPath, ['cli/ops.ts', 'refresh-trust'], {
      env: { ...process.env, DATABASE_URL: stack.config.DATABASE_URL, REDIS_URL: stack.config.REDIS_URL },
    });
    expect(stdout).toContain('refresh-trust done: 2 records, 0 disputed states changed');
    expect(await disputeChanges()).toBe(1);
  });
});
