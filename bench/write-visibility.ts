/**
 * Write → visible: after an edit's receipt (201), how long until nginx
 * serves the new revision's file (a new ETag). The baseline is the floor of
 * that lag: rendering the same records (the problem and its author's page,
 * which an edit re-renders) directly, in this process, to a scratch directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadHtmlRenderer } from '../projections/html.ts';
import type { RecordRef } from '../core/types.ts';
import { renderRecord } from '../worker/render/render-record.ts';
import { admit, send } from '../test/helpers/client.ts';
import type { VisibilityResult } from './clients/write-visibility.ts';
import { runClient } from './lib/child.ts';
import { problemContent } from './lib/seed.ts';
import { round, roundAll, summarize } from './lib/stats.ts';
import type { Bench } from './lib/types.ts';
import { rendersCaughtUp } from './lib/wait.ts';

const MAX_EDITS = 300;
const SECONDS = 25;
const POLL_MS = 2;
const DIRECT_RENDERS = 100;

export const writeVisibility: Bench = {
  name: 'write-visibility',
  title:
    'write → projection visible: receipt (201) to nginx serving the new ETag, vs rendering the same records directly',
  budgetSeconds: 60,
  async run(ctx) {
    const stack = await ctx.startStack();
    const agent = await admit(stack.base);
    const run = randomBytes(4).toString('hex');
    const created = await send(stack.base, agent, 'POST', '/api/problems', problemContent(run, 0));
    if (created.status !== 201) throw new Error(`the write answered ${created.status}`);
    const problemId = created.body.resource.id as string;
    await rendersCaughtUp(stack.pool, 15_000);
    const nginx = await ctx.startNginx(stack);
    ctx.log(
      `edits of one problem, one at a time (at most ${MAX_EDITS} or ${SECONDS} s); nginx polled every ${POLL_MS} ms`,
    );

    const timings = await runClient<VisibilityResult>(
      'write-visibility',
      {
        service: stack.base,
        edge: nginx.base,
        secret: agent.secret,
        problemId,
        revision: 1,
        run,
        max: MAX_EDITS,
        seconds: SECONDS,
        pollMs: POLL_MS,
        timeoutMs: 10_000,
      },
      (SECONDS + 20) * 1000,
    );
    if (timings.failures.length) ctx.log(`failures: ${timings.failures.join('; ')}`);
    if (timings.visibleAfterReceiptMs.length === 0) throw new Error('no edit became visible');
    const lag = summarize(timings.visibleAfterReceiptMs);
    const total = summarize(timings.visibleAfterSendMs);
    const receipt = summarize(timings.receiptMs);
    ctx.log(
      `receipt → visible: p50 ${round(lag.p50)} ms, p99 ${round(lag.p99)} ms over ${lag.count} edits (${timings.polls} polls)`,
    );
    ctx.log(
      `send → visible:    p50 ${round(total.p50)} ms, p99 ${round(total.p99)} ms (receipt p50 ${round(receipt.p50)} ms)`,
    );

    // The floor: the same two records rendered straight to files, no queue, no claim, no lock.
    const html = await loadHtmlRenderer(stack.config.ASTRO_ENTRY);
    const scratch = await mkdtemp(path.join(tmpdir(), 'ak-bench-render-'));
    ctx.defer(() => rm(scratch, { recursive: true, force: true }));
    const refs: RecordRef[] = [
      { type: 'problem', id: problemId },
      { type: 'agent', id: agent.id },
    ];
    const directMs: number[] = [];
    for (let i = 0; i < DIRECT_RENDERS; i++) {
      const t0 = performance.now();
      for (const ref of refs) await renderRecord(stack.pool, html, scratch, ref);
      directMs.push(performance.now() - t0);
    }
    const direct = summarize(directMs);
    ctx.log(
      `direct render:     p50 ${round(direct.p50)} ms, p99 ${round(direct.p99)} ms (${DIRECT_RENDERS} renders of the problem and the agent page)`,
    );

    const baselineLabel = 'direct render, same records';
    return {
      comparisons: [
        {
          metric: 'receipt → new ETag served, p50',
          unit: 'ms',
          value: lag.p50,
          baselineLabel,
          baseline: direct.p50,
          better: 'lower',
        },
        {
          metric: 'receipt → new ETag served, p99',
          unit: 'ms',
          value: lag.p99,
          baselineLabel,
          baseline: direct.p99,
          better: 'lower',
        },
      ],
      details: {
        edits: lag.count,
        pollMs: POLL_MS,
        polls: timings.polls,
        failures: timings.failures,
        visibleAfterReceiptMs: roundAll(lag),
        visibleAfterSendMs: roundAll(total),
        receiptMs: roundAll(receipt),
        directRenderMs: roundAll(direct),
        directRenders: DIRECT_RENDERS,
      },
      notes: [
        `The lag includes up to ${POLL_MS} ms of polling granularity plus one nginx round trip.`,
        "Each edit re-renders two records (the problem and its author's page), both in the lag and in the baseline.",
      ],
    };
  },
};
