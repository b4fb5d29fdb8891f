/**
 * The render job and the catch-up sweep around a render pass (render.ts):
 * the metrics, the notes for the static search index, and the follow-ups a
 * pass asks for (a re-index, the sitemaps, the search champions). Pages
 * rendered under the operator's fence carry its banner; the catch-up renders
 * them again once it is lowered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Processor, Queue } from 'bullmq';
import { REBUILD_JOB, RebuildJobSchema, RENDER_DEDUPLICATION_ID, RENDER_JOB } from '../../core/queue-contract.ts';
import { notePendingRecords } from '../../static-search/tiers.ts';
import { renderAfterFence } from '../render/fence-banner.ts';
import { resetSitemaps } from '../sitemap/sitemaps.ts';
import type { JobContext } from './context.ts';
import { rebuild } from './rebuild.ts';
import { renderPendingChanges, type RenderPass } from './render.ts';

/** Renders every change unrendered when it begins, and asks for what follows from the files it changed. */
export async function renderPass(ctx: JobContext): Promise<RenderPass> {
  const { config, pool, logger, metrics, renderer } = ctx;
  if (!renderer) throw new Error('this worker does not render (WORKER_ROLES=commit)');
  const stop = metrics.renderLatency.startTimer();
  const pass = await renderPendingChanges(
    pool,
    renderer,
    config.PROJECTIONS_DIR,
    (committedAt) => {
      const now = Date.now();
      for (const at of committedAt) metrics.commitPhase.observe({ phase: 'render' }, (now - at.getTime()) / 1000);
    },
    (refs) => notePendingRecords(config.PROJECTIONS_DIR, refs),
  ).finally(stop);
  metrics.renderedFiles.inc({ result: 'written' }, pass.written);
  metrics.renderedFiles.inc({ result: 'unchanged' }, pass.unchanged);
  metrics.renderedFiles.inc({ result: 'removed' }, pass.removed);
  if (pass.changes > 0) logger.info(pass, 'rendered');
  // Batched by the search-index job's queue: a burst of passes costs one re-index.
  if (pass.written + pass.removed > 0) await ctx.request('search-index');
  // Only the day chunks of the records changed since its cursor, at most every few seconds.
  if (pass.changes > 0) void ctx.request('sitemaps');
  if (pass.changes > 0) void ctx.request('search-champions');
  return pass;
}

/**
 * How a commit asks for a render pass: one deduplication id for every
 * request, with `keepLastIfActive`, so at most one pass runs and one waits
 * however many commits ask. Requests are coalesced (table.ts): commits that
 * finish while one is being queued get one more after it, which covers them
 * all, so a stream of commits costs a Redis round trip per turn instead of
 * one per commit. If a request is lost (a crash right here), the sweep
 * renders the change, as it would if the crash came before the request.
 */
export async function queueRenderPass(queue: Queue, { metrics }: JobContext): Promise<void> {
  const enqueued = performance.now();
  await queue.add(
    RENDER_JOB,
    {},
    {
      deduplication: { id: RENDER_DEDUPLICATION_ID, keepLastIfActive: true },
      removeOnComplete: true,
      removeOnFail: 1000,
    },
  );
  metrics.commitPhase.observe({ phase: 'render_enqueue' }, (performance.now() - enqueued) / 1000);
}

/**
 * Queued passes start at most this often in one worker. Much of a pass is
 * paid once per pass whatever it holds (the lease and mark statements, the
 * author pages every write of a batch touches, the notes for the static
 * index and its run), so a renderer that keeps pace with a stream of commits
 * paid it for every few writes; spaced, a pass takes what the stream
 * committed meanwhile. A pass after a quiet spell starts at once.
 */
export const PASS_SPACING_MS = 200;

/** The render queue's processor: a render pass, or an operator's rebuild. */
export function processRender(ctx: JobContext): Processor {
  const { config, pool, logger } = ctx;
  let lastPass = -Infinity;
  return async function processRender(job) {
    if (job.name !== REBUILD_JOB) {
      const wait = lastPass + PASS_SPACING_MS - performance.now();
      if (wait > 0) await sleep(wait);
      lastPass = performance.now();
      return renderPass(ctx);
    }
    const target = RebuildJobSchema.parse(job.data);
    const counts = await rebuild(pool, ctx.renderer!, config.PROJECTIONS_DIR, target, (p) => {
      // Progress is for operators watching the job; losing an update is harmless.
      if (p.done === p.total || p.done % 100 === 0) void job.updateProgress(p).catch(() => {});
    });
    if (!target.type && !target.id) await resetSitemaps(pool, config.PROJECTIONS_DIR, config.PUBLIC_ORIGIN);
    logger.info({ target, ...counts }, 'rebuild finished');
    if (counts.written + counts.removed > 0) await ctx.request('search-index');
    return counts;
  };
}

/**
 * The sweep: renders every unrendered change (what a lost request or a dead
 * worker left), what a pass's sitemap horizon left out and what a previous
 * process asked for and did not get to, and pages rendered under a fence
 * since lowered.
 */
export async function catchUp(ctx: JobContext): Promise<void> {
  const { config, pool, logger, fence, renderer } = ctx;
  if (!renderer) return;
  await renderPass(ctx);
  await ctx.flush('sitemaps', true);
  void ctx.request('search-champions');
  const unfenced = await renderAfterFence(pool, renderer, config.PROJECTIONS_DIR, fence);
  if (unfenced > 0) logger.info({ records: unfenced }, 'rendered again without the fence banner');
}
