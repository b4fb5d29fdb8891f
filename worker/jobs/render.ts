/**
 * Re-renders what committed changes affect. Driven by the change log, not by
 * the job payload: any render job renders every change not yet rendered, so a
 * worker killed between commit and render catches up when a worker runs
 * again, and a burst of commits costs one pass.
 */
import type pg from 'pg';
import type { Renderer } from '../../core/render/astro-renderer.ts';
import type { RecordRef } from '../../core/types.ts';
import { leaseUnrenderedChanges, markChangesRendered, releaseChangeLeases } from '../../db/queries/changes.ts';
import { withRecordLock } from '../render/record-lock.ts';
import { emptyCounts, renderRecord, type RenderCounts } from '../render/render-record.ts';

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

export async function renderPendingChanges(pool: pg.Pool, renderer: Renderer, dir: string): Promise<RenderPass> {
  const pass: RenderPass = { ...emptyCounts(), changes: 0, records: 0 };
  for (;;) {
    const changes = await leaseUnrenderedChanges(pool, BATCH, LEASE_SECONDS);
    if (changes.length === 0) return pass;
    const cursors = changes.map((c) => c.cursor);
    const records = uniqueRecords(changes.flatMap((c) => c.affects));
    try {
      for (const ref of records) {
        await withRecordLock(pool, ref.id, () => renderRecord(renderer, dir, ref, pass));
      }
      await markChangesRendered(pool, cursors);
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
