/**
 * Queued render passes are spaced: under a stream of commits each pass takes
 * what was committed since the last one began, and a pass after a quiet
 * spell starts at once.
 */
import type { Job } from 'bullmq';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { RENDER_JOB } from '../../core/queue-contract.ts';
import { createWorkerMetrics } from '../../infra/metrics.ts';
import type { JobContext } from '../../worker/jobs/context.ts';
import { PASS_SPACING_MS, processRender } from '../../worker/jobs/render-job.ts';

/** A render worker's context over a change log that holds nothing: each pass reads the newest cursor and ends. */
function quietContext(passes: number[]): JobContext {
  const pool = {
    async query() {
      passes.push(performance.now());
      return { rows: [{ cursor: null }] };
    },
  } as unknown as pg.Pool;
  return {
    config: { PROJECTIONS_DIR: '/nonexistent' },
    pool,
    logger: { info() {}, warn() {} },
    metrics: createWorkerMetrics(),
    fence: {},
    renderer: { render: async () => Buffer.alloc(0), renderRoute: async () => ({}) },
    request: async () => {},
    flush: async () => {},
  } as unknown as JobContext;
}

const renderJob = { name: RENDER_JOB, data: {} } as Job;

describe('queued render passes', () => {
  it('start at most once per spacing in one worker, and at once after a quiet spell', async () => {
    const passes: number[] = [];
    const process = processRender(quietContext(passes));
    const started = performance.now();
    await process(renderJob, 'token');
    await process(renderJob, 'token');
    expect(passes).toHaveLength(2);
    expect(passes[0]! - started).toBeLessThan(PASS_SPACING_MS / 2);
    expect(passes[1]! - passes[0]!).toBeGreaterThanOrEqual(PASS_SPACING_MS - 5);

    await new Promise((resolve) => setTimeout(resolve, PASS_SPACING_MS));
    const later = performance.now();
    await process(renderJob, 'token');
    expect(passes[2]! - later).toBeLessThan(PASS_SPACING_MS / 2);
  });
});
