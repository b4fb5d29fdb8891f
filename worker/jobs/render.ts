/**
 * Re-renders what committed changes affect. Driven by the change log, not by
 * the job payload: any render job renders every change not yet rendered, so a
 * worker killed between commit and render catches up when a worker runs
 * again, and a burst of commits costs one pass.
 */
import type pg from 'pg';
import type { HtmlRenderer } from '../../projections/html.ts';
import type { RecordRef } from '../../core/types.ts';
import {
  latestChangeCursor,
  leaseUnrenderedChanges,
  markChangesRendered,
  releaseChangeLeases,
} from '../../db/queries/changes.ts';
import { emptyCounts, renderRecords, type RenderCounts } from '../render/render-record.ts';

const BATCH = 100;
/**
 * Long enough for a batch to render in the usual case; if it runs out, another
 * renderer may render the same records again, which is harmless (record locks,
 * unchanged bytes are not rewritten). A renderer that dies or loses its
 * database mid-pass loses its changes for at most this long.
 */
const LEASE_SECONDS = 30;

export interface RenderPass extends RenderCounts {
  changes: number;
  records: number;
}

/** Told the commit times of the changes a pass has just rendered (for the commit → rendered metric). */
export type OnRendered = (committedAt: Date[]) => void;

/**
 * Renders the records of every change unrendered when the pass begins. It
 * stops there: a change committed later has asked for a pass of its own, and
 * under writes that outpace the renderers (a render worker runs at a lower
 * priority) a pass that chased the newest change would never end, nor would
 * the start-up sweep that waits for one. `noteRecords` hears each batch's
 * records once their files are written and before the changes are marked
 * rendered (the static search notes them there), so a failure in it hands
 * the batch back like a failed render.
 */
export async function renderPendingChanges(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  onRendered?: OnRendered,
  noteRecords: (refs: RecordRef[]) => Promise<void> = async () => {},
): Promise<RenderPass> {
  const pass: RenderPass = { ...emptyCounts(), changes: 0, records: 0 };
  const upTo = await latestChangeCursor(pool);
  if (upTo === null) return pass;
  for (;;) {
    const changes = await leaseUnrenderedChanges(pool, BATCH, LEASE_SECONDS, upTo);
    if (changes.length === 0) return pass;
    const cursors = changes.map((c) => c.cursor);
    const records = uniqueRecords(changes.flatMap((c) => c.affects));
    try {
      // One batched read of every affected record, one view each, under their locks.
      await renderRecords(pool, html, dir, records, pass);
      await noteRecords(records);
      await markChangesRendered(pool, cursors);
      onRendered?.(changes.map((c) => c.committed_at));
    } catch (error) {
      // Hand the changes back for the next pass; if the database is away, the lease lapses instead.
      await releaseChangeLeases(pool, cursors).catch(() => {});
      throw error;
    }
    pass.records += records.length;
    pass.changes += changes.length;
    if (changes.length < BATCH) return pass;
  }
}

/** Records in a fixed order, so renderers take record locks in one order. */
export function uniqueRecords(refs: RecordRef[]): RecordRef[] {
  const seen = new Map<string, RecordRef>();
  for (const ref of refs) seen.set(ref.id, ref);
  return [...seen.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
