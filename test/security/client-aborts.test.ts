/**
 * Point 13: clients that hung up mid-request were logged and counted as 503
 * "dependency unavailable". They are now logged as client aborts and counted
 * with status 499, so the 503 series counts only outages.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { eventually } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN) }, { worker: false, captureLogs: true });
});
afterAll(() => stack.close());

/** Sends the headers and part of a body, then hangs up. */
function hangUpMidBody(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(stack.api.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"kind":`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 150);
    });
    socket.on('error', reject);
  });
}

const logLines = () => stack.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a client that hangs up mid-request', () => {
  it('is logged as a client abort and counted as 499, never as a 503 dependency outage', async () => {
    for (let i = 0; i < 5; i++) await hangUpMidBody('/api/public/admission');
    for (let i = 0; i < 3; i++) await hangUpMidBody('/mcp/read');
    await eventually(async () => logLines().filter((l) => l.msg === 'client aborted').length >= 8, 5_000);
    expect(logLines().filter((l) => l.msg === 'dependency unavailable')).toEqual([]);
    const metrics = await (
      await fetch(`${stack.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(metrics).not.toMatch(/ak_http_requests_total\{[^}]*status="503"/);
    expect(metrics).toMatch(/ak_http_requests_total\{method="POST",route="\/api\/public\/admission",status="499"\} 5/);
  });
});
