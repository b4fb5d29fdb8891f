/**
 * Hole 6: /metrics was public on the service port and grew with what clients
 * sent (512 requests with 32 invented methods: 806 series). It now needs the
 * operator token there (or a separate API_METRICS_PORT), and a method the API
 * does not serve is labelled `other`.
 */
import { randomBytes } from 'node:crypto';
import { METHODS, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { errorOf } from '../helpers/client.ts';
import { freePort } from '../helpers/ports.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const TOKEN = randomBytes(24).toString('base64url');
let stack: Stack;
let metricsPort: number;
beforeAll(async () => {
  metricsPort = await freePort();
  stack = await startStack(
    { OPERATOR_TOKEN_SHA256: sha256Hex(TOKEN), API_METRICS_PORT: String(metricsPort) },
    { worker: false },
  );
});
afterAll(() => stack.close());

/** A request with any method the HTTP parser accepts (fetch refuses some). */
function send(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack.base}${path}`, { method }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

const seriesOf = (text: string) => text.split('\n').filter((line) => line.startsWith('ak_http_requests_total{'));

describe('/metrics', () => {
  it('is refused on the service port without the operator token, and served with it', async () => {
    const anonymous = await fetch(`${stack.base}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(errorOf(await anonymous.json()).reason).toBe('operator_token_required');
    const operator = await fetch(`${stack.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(operator.status).toBe(200);
    expect(await operator.text()).toContain('ak_http_requests_total');
  });

  it('is served without a token on the separate metrics port', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('ak_http_requests_total');
  });

  it('does not grow with the methods clients invent', async () => {
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const odd = METHODS.filter(
      (m) => !['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT'].includes(m),
    );
    expect(odd.length).toBeGreaterThanOrEqual(20);
    for (let round = 0; round < 4; round++) {
      for (const method of odd) await send(method, `/api/problems?round=${round}`);
    }
    const series = seriesOf(await scrape());
    const methods = new Set(series.map((line) => /method="([^"]*)"/.exec(line)![1]!));
    expect(
      [...methods].filter((m) => !['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'other'].includes(m)),
    ).toEqual([]);
    expect(methods.has('other')).toBe(true);
    const before = series.length;
    for (const method of odd) await send(method, '/api/solutions');
    expect(seriesOf(await scrape()).length - before).toBeLessThanOrEqual(1);
  });
});
