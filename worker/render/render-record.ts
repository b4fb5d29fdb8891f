/** Renders one record's three projections to files (or removes them if the record is gone). */
import type { Renderer } from '../../core/render/astro-renderer.ts';
import { FORMATS, projectionFile, projectionRoute } from '../../core/render/projections.ts';
import type { RecordRef } from '../../core/types.ts';
import { removeProjectionFile, writeProjectionFile } from './publish.ts';

export interface RenderCounts {
  written: number;
  unchanged: number;
  removed: number;
}

export const emptyCounts = (): RenderCounts => ({ written: 0, unchanged: 0, removed: 0 });

export async function renderRecord(renderer: Renderer, dir: string, ref: RecordRef, counts = emptyCounts()): Promise<RenderCounts> {
  for (const format of FORMATS) {
    const out = await renderer.render(projectionRoute(ref, format));
    const file = projectionFile(ref, format);
    if (out.status === 200) {
      counts[await writeProjectionFile(dir, file, out.body)]++;
    } else if (out.status === 404) {
      if (await removeProjectionFile(dir, file)) counts.removed++;
    } else {
      throw new Error(`rendering ${projectionRoute(ref, format)} answered ${out.status}`);
    }
  }
  return counts;
}
