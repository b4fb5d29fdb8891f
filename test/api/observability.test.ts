import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { credentialHash, sha256Hex } from '../../core/hash.ts';
import { countUnrenderedChanges } from '../../db/queries/changes.ts';
import { admit, eventually, newKey, newSecret, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const OPERATOR_TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(OPERATOR_TOKEN) }, { captureLogs: true });
});
afterAll(() => stack.close());

describe('logs', () => {
  it('carry no bearer secret, credential hash or idempotency key, and a request id on every request line', async () => {
    const agent = await admit(stack.base);
    const key = newKey();
    const created = await send(stack.base, agent, 'POST', '/api/problems', problemBody(), { key });
    await send(stack.base, agent, 'POST', '/api/problems', { bad: true }, { key: newKey() });
    const stranger = newSecret();
    const refused = await fetch(`${stack.base}/api/whoami`, { headers: { authorization: `Bearer ${stranger}` } });
    const rotatedTo = newSecret();
    await send(stack.base, agent, 'POST', '/api/credentials/rotate', {
      epoch: 1,
      credential_hash: credentialHash(rotatedTo),
    });
    await eventually(async () => (await countUnrenderedChanges(stack.pool)) === 0);

    const text = stack.logs.join('');
    for (const secret of [
      agent.secret,
      credentialHash(agent.secret),
      stranger,
      rotatedTo,
      credentialHash(rotatedTo),
      key,
    ]) {
      expect(text).not.toContain(secret);
    }
    const requests = stack.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(5);
    for (const line of requests) expect(line.requestId).toMatch(/^req_[0-9a-f]{20}$/);
    const id = refused.headers.get('x-request-id');
    expect((await refused.json()).error.request_id).toBe(id);
    expect(requests.some((l) => l.requestId === id && l.status === '401' && l.route === '/api/whoami')).toBe(true);
    expect(created.status).toBe(201);
  });
});

describe('GET /metrics', () => {
  it('exposes request counts and latencies by route, queue depth and render lag', async () => {
    await fetch(`${stack.base}/api/v1`);
    const res = await fetch(`${stack.base}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/ak_http_requests_total\{method="GET",route="\/api\/v1",status="200"\} \d+/);
    expect(text).toContain('ak_http_request_duration_seconds_bucket');
    expect(text).toMatch(/ak_queue_jobs\{queue="commit",state="waiting"\} \d+/);
    expect(text).toMatch(/ak_render_lag_changes \d+/);
    expect(text).toMatch(/ak_last_committed_cursor \d+/);
    expect(text).toMatch(/ak_last_rendered_cursor \d+/);
    expect(text).toMatch(/ak_search_champions_unfolded_documents \d+/);
    expect(text).toMatch(/ak_search_champions_lag_seconds [\d.]+/);
  });

  it('counts commits and renders in the worker registry', async () => {
    const text = await stack.worker!.metrics.registry.metrics();
    expect(text).toMatch(/ak_commit_duration_seconds_count\{operation="create_problem",result="committed"\} [1-9]/);
    expect(text).toMatch(/ak_rendered_files_total\{result="written"\} [1-9]/);
  });
});
