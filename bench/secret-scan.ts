/**
 * The secret scanner's cost per write against the write's own cost: the
 * scan of a write body (every string, keys included), timed in this process,
 * next to the receipt latency of the same kind of write through the API,
 * worker and PostgreSQL, one at a time. Two bodies: an ordinary problem
 * (the common case) and a paste-heavy one holding a dozen secret shapes of
 * the test corpus in its body, error literal and environment.
 */
import { randomBytes } from 'node:crypto';
import { redactBody } from '../core/redact-secrets.ts';
import { admit } from '../test/helpers/client.ts';
import { secretCases } from '../test/helpers/secret-corpus.ts';
import { problemContent } from './lib/seed.ts';
import { round, summarize } from './lib/stats.ts';
import type { Bench, Comparison } from './lib/types.ts';

const WRITES = 60;
const WARMUP = 10;
/** Scans per body for the scanner's own figure; its cost is microseconds, so many are timed together. */
const SCANS = 400;

/** A problem as an agent pastes it with secrets in it: a dozen shapes of the corpus. */
function pasteHeavy(run: string, n: number) {
  const cases = secretCases();
  const picked = cases.filter((_, i) => i % 18 === n % 18).slice(0, 12);
  const base = problemContent(run, n);
  return {
    ...base,
    body: `${base.body}\n\nWhat I ran:\n${picked.map((c) => c.text).join('\n')}`,
    error_literal: `${base.error_literal}\n${picked[0]!.text}`.slice(0, 2000),
    environment: { ...base.environment, pasted: picked[1]!.text.slice(0, 500) },
  };
}

/** Median milliseconds of one `redactBody` over `bodies`, each scanned SCANS times in rounds. */
function scanCost(bodies: Record<string, unknown>[]): number {
  for (const body of bodies) redactBody(body);
  const samples: number[] = [];
  for (let round = 0; round < 20; round++) {
    const started = performance.now();
    for (let i = 0; i < SCANS / 20; i++) for (const body of bodies) redactBody(body);
    samples.push((performance.now() - started) / ((SCANS / 20) * bodies.length));
  }
  return summarize(samples).p50;
}

export const secretScan: Bench = {
  name: 'secret-scan',
  title:
    'secret scanner per write (every string of the body, keys included) vs the write receipt latency, one write at a time',
  budgetSeconds: 180,
  async run(ctx) {
    const stack = await ctx.startStack();
    const agent = await admit(stack.base);
    const run = randomBytes(4).toString('hex');
    const write = async (body: unknown, i: number) => {
      const started = performance.now();
      const res = await fetch(`${stack.base}/api/problems`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${agent.secret}`,
          'idempotency-key': `bench:${run}-${i}`,
        },
        body: JSON.stringify(body),
      });
      await res.text();
      if (res.status !== 201) throw new Error(`write answered ${res.status}`);
      return performance.now() - started;
    };
    const ordinary = Array.from(
      { length: WARMUP + WRITES },
      (_, i) => problemContent(run, i) as unknown as Record<string, unknown>,
    );
    const heavy = Array.from(
      { length: WARMUP + WRITES },
      (_, i) => pasteHeavy(`${run}x`, i) as unknown as Record<string, unknown>,
    );
    const plainLatency: number[] = [];
    const heavyLatency: number[] = [];
    // Taking turns, so both kinds of write meet the same load.
    for (let i = 0; i < WARMUP + WRITES; i++) {
      const a = await write(ordinary[i], i);
      const b = await write(heavy[i], WARMUP + WRITES + i);
      if (i >= WARMUP) {
        plainLatency.push(a);
        heavyLatency.push(b);
      }
    }
    const plainWrite = summarize(plainLatency).p50;
    const heavyWrite = summarize(heavyLatency).p50;
    const plainScan = scanCost(ordinary.slice(WARMUP));
    const heavyScan = scanCost(heavy.slice(WARMUP));
    const redacted = heavy.slice(WARMUP).filter((b) => redactBody(b).redacted.length > 0).length;
    ctx.log(
      `ordinary write: scan ${round(plainScan * 1000, 1)} µs, write receipt p50 ${round(plainWrite, 2)} ms: ${round((plainScan / plainWrite) * 100, 2)} % of the write`,
    );
    ctx.log(
      `paste-heavy write (12 secret shapes): scan ${round(heavyScan * 1000, 1)} µs, write receipt p50 ${round(heavyWrite, 2)} ms: ${round((heavyScan / heavyWrite) * 100, 2)} % of the write (${redacted}/${WRITES} bodies redacted)`,
    );
    const comparisons: Comparison[] = [
      {
        metric: 'scan, ordinary write',
        unit: 'ms',
        value: plainScan,
        baselineLabel: 'write receipt p50, same body',
        baseline: plainWrite,
        better: 'lower',
      },
      {
        metric: 'scan, paste-heavy write',
        unit: 'ms',
        value: heavyScan,
        baselineLabel: 'write receipt p50, same body',
        baseline: heavyWrite,
        better: 'lower',
      },
    ];
    return {
      comparisons,
      details: {
        writes: WRITES,
        warmup: WARMUP,
        scansPerBody: SCANS,
        plainScanMs: plainScan,
        heavyScanMs: heavyScan,
        plainWriteMs: plainWrite,
        heavyWriteMs: heavyWrite,
      },
      notes: ["The ratio is the scanner's share of a write: what every write pays to keep secrets out of the store."],
    };
  },
};
