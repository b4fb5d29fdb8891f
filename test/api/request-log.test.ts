/**
 * The request log line (api/http/observability.ts) is written from JSON built
 * once per series (infra/logger.ts, `infoLineWriter`): it must be the very
 * line pino writes for the same fields, at the same level, to the same
 * destination, and follow the logger's level as it changes.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createRequestRecorder } from '../../api/http/observability.ts';
import { createLogger, infoLineWriter } from '../../infra/logger.ts';
import { createApiMetrics } from '../../infra/metrics.ts';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

/** Times differ between two lines written a moment apart. */
const timeless = (line: string) => line.replace(/,"time":\d+/, ',"time":0');

describe('the request log line', () => {
  it('is the line pino writes for the same fields', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', 'test', destination);
    const record = createRequestRecorder(logger, createApiMetrics());
    const cases: [string, string, string, number, number][] = [
      ['req_0123456789abcdef0123', 'GET', '/problems/:name', 200, 0.000_4],
      ['req_0123456789abcdef0124', 'HEAD', '/api/v1/problems/:id', 304, 0.001_6],
      ['req_0123456789abcdef0125', 'PROPFIND', 'unmatched', 404, 1.234_5],
      ['req_0123456789abcdef0126', 'GET', '/problems/:name', 200, 0.012],
      ['req_with "quotes" and \\', 'POST', '/api/x/"odd"\\route', 201, 0],
    ];
    // Each request's line, then pino's own line for the same fields (as the recorder wrote it before), to the same destination.
    const viaPino = logger.child({}, { redact: [] });
    for (const [requestId, method, route, status, seconds] of cases) {
      record(requestId, method, route, status, seconds);
      viaPino.info(
        {
          requestId,
          method: method === 'PROPFIND' ? 'other' : method,
          route,
          status: String(status),
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    }
    expect(lines).toHaveLength(2 * cases.length);
    cases.forEach(([requestId, , route], i) => {
      expect(timeless(lines[2 * i]!)).toBe(timeless(lines[2 * i + 1]!));
      expect(JSON.parse(lines[2 * i]!)).toMatchObject({ level: 30, name: 'test', requestId, route, msg: 'request' });
    });
  });

  it("follows the logger's level, also when it changes while running", () => {
    const { lines, destination } = capture();
    const logger = createLogger('warn', 'test', destination);
    const write = infoLineWriter(logger, 'request');
    write(',"a":1');
    expect(lines).toHaveLength(0);
    logger.level = 'info';
    write(',"a":2');
    logger.level = 'silent';
    write(',"a":3');
    expect(lines.map((line) => JSON.parse(line) as { a: number }).map((l) => l.a)).toEqual([2]);
  });

  it("is pino's own call for a logger configured to change lines", () => {
    const { lines, destination } = capture();
    const logger = pino({ name: 'test', mixin: () => ({ extra: true }) }, destination);
    infoLineWriter(logger, 'request')(',"a":1');
    expect(JSON.parse(lines[0]!)).toMatchObject({ a: 1, extra: true, msg: 'request', level: 30 });
  });
});
