/**
 * Renders records' three projections to files, each from one view (or
 * removes them when the record is gone). A batch of records is one batched
 * read (read-model loadViews), then three renders per record and parallel
 * atomic file writes.
 */
import type pg from 'pg';
import type { RecordView } from '../../core/schemas/views.ts';
import type { RecordRef } from '../../core/types.ts';
import { FORMATS, MEDIA_TYPE, projectionFile } from '../../projections/files.ts';
import type { HtmlRenderer } from '../../projections/html.ts';
import { inlineWriter, type ProjectionWriter } from '../../projections/publish-pool.ts';
import { renderProjections } from '../../projections/render.ts';
import { loadViews } from '../../read-model/record-view.ts';
import { withRecordLocks } from '../../db/record-lock.ts';

export interface RenderCounts {
  written: number;
  unchanged: number;
  removed: number;
}

export const emptyCounts = (): RenderCounts => ({ written: 0, unchanged: 0, removed: 0 });

/**
 * Records rendered at once: enough that a rebuild's writer threads always
 * have files queued while the main thread renders the next records.
 */
const RENDERS_IN_FLIGHT = 32;

/** Writes the projections of `view`, or removes `ref`'s files when the view is null (the record is gone). */
export async function publishView(
  html: HtmlRenderer,
  dir: string,
  ref: RecordRef,
  view: RecordView | null,
  counts = emptyCounts(),
  writer: ProjectionWriter = inlineWriter,
): Promise<RenderCounts> {
  if (!view) {
    const removed = await writer.remove(
      dir,
      FORMATS.map((format) => projectionFile(ref, format)),
    );
    counts.removed += removed.filter(Boolean).length;
    return counts;
  }
  const rendered = await renderProjections(html, view);
  const results = await writer.write(
    dir,
    FORMATS.map((format) => ({
      relative: projectionFile(ref, format),
      bytes: rendered[format],
      contentType: MEDIA_TYPE[format],
    })),
  );
  for (const result of results) counts[result]++;
  return counts;
}

/**
 * Renders `refs` (one batch: all their views are held at once) under their
 * record locks, from one batched read of their current state. `writer` is
 * where the files are compressed and written (a rebuild passes its threads).
 */
export async function renderRecords(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  refs: RecordRef[],
  counts = emptyCounts(),
  writer: ProjectionWriter = inlineWriter,
): Promise<RenderCounts> {
  if (refs.length === 0) return counts;
  return withRecordLocks(
    pool,
    refs.map((r) => r.id),
    async () => {
      const views = await loadViews(pool, refs);
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < refs.length; i = next++)
          await publishView(html, dir, refs[i]!, views[i]!, counts, writer);
      };
      await Promise.all(Array.from({ length: Math.min(RENDERS_IN_FLIGHT, refs.length) }, lane));
      return counts;
    },
  );
}

/** Renders one record's current state. */
export function renderRecord(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  ref: RecordRef,
  counts = emptyCounts(),
): Promise<RenderCounts> {
  return renderRecords(pool, html, dir, [ref], counts);
}
