/**
 * Re-renders what committed changes affect. Driven by the change log, not by
 * the job payload: any render job renders every change not yet rendered, so a
 * worker killed between commit and render catches up when a worker runs
 * again, and a burst of commits costs one pass.
 */
import type pg from 'pg';
import type { Renderer } from '../../core/render/astro-renderer.ts';
import type { RecordRef } from '../../core/types.ts';
import { withTransaction } from '../../db/pool.ts';
import { claimUnrenderedChanges, markChangesRendered } from '../../db/queries/changes.ts';
import { emptyCounts, renderRecord, type RenderCounts } from '../render/render-record.ts';

const BATCH = 200;

export interface RenderPass extends RenderCounts {
  changes: number;
  records: number;
}

export async function renderPendingChanges(pool: pg.Pool, renderer: Renderer, dir: string): Promise<RenderPass> {
  const pass: RenderPass = { ...emptyCounts(), changes: 0, records: 0 };
  for (;;) {
    const claimed = await withTransaction(pool, async (tx) => {
      const changes = await claimUnrenderedChanges(tx, BATCH);
      if (changes.length === 0) return 0;
      const records = uniqueRecords(changes.flatMap((c) => c.affects));
      for (const ref of records) {
        // Two renderers never write one record at once, and whoever renders
        // second reads the newer committed state: no stale file wins.
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))', [ref.id]);
        await renderRecord(renderer, dir, ref, pass);
      }
      await markChangesRendered(tx, changes.map((c) => c.cursor));
      pass.records += records.length;
      return changes.length;
    });
    pass.changes += claimed;
    if (claimed < BATCH) return pass;
  }
}

/** Records in a fixed order (also the lock order, so renderers cannot deadlock). */
export function uniqueRecords(refs: RecordRef[]): RecordRef[] {
  const seen = new Map<string, RecordRef>();
  for (const ref of refs) seen.set(ref.id, ref);
  return [...seen.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
