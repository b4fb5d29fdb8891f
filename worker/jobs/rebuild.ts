/**
 * Full rebuild: renders every record's projections and removes projection
 * files of records that no longer exist. Unchanged bytes are not rewritten
 * (see publish.ts), so a rebuild over a current directory writes nothing.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { HtmlRenderer } from '../../projections/html.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { listAllDiscussionIds } from '../../db/queries/discussions.ts';
import { listAllIdentityIds } from '../../db/queries/identities.ts';
import { listAllProblemIds } from '../../db/queries/problems.ts';
import { listAllSolutionIds } from '../../db/queries/solutions.ts';
import { pathInside } from '../../projections/safe-path.ts';
import { emptyCounts, renderRecords, type RenderCounts } from '../render/render-record.ts';
import { notePendingRecords } from '../../static-search/tiers.ts';
import { createThreadedWriter } from '../../projections/publish-pool.ts';
import { abandonStaging, finishStaging, prepareStaging, stagingWriter } from './rebuild-staging.ts';

export interface RebuildProgress {
  done: number;
  total: number;
}

export async function listAllRecords(db: Queryable): Promise<RecordRef[]> {
  const of = (type: RecordRef['type']) => (ids: string[]) => ids.map((id): RecordRef => ({ type, id }));
  return [
    ...of('problem')(await listAllProblemIds(db)),
    ...of('solution')(await listAllSolutionIds(db)),
    ...of('discussion')(await listAllDiscussionIds(db)),
    ...of('agent')(await listAllIdentityIds(db)),
  ];
}

/** What to rebuild: everything, one kind, or one record. */
export interface RebuildTarget {
  type?: RecordRef['type'];
  id?: string;
}

export async function rebuildAll(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  onProgress: (p: RebuildProgress) => void = () => {},
): Promise<RenderCounts> {
  return rebuild(pool, html, dir, {}, onProgress);
}

/** Records per batch: one batched read, then their renders and writes; bounds what is held in memory. */
export const REBUILD_BATCH = 500;

/**
 * Batches under way at once: while one batch's files are compressed and
 * written (in the writer threads), the next one's views are read and
 * rendered, so neither the database round trips nor the threads wait.
 */
const BATCHES_IN_FLIGHT = 2;

/**
 * One writer thread creates every file. The kernel serializes creating files
 * in one folder (the folder's lock), and with two writer threads in the same
 * folder the second spun on that lock: 11 % of a 10k rebuild's samples in
 * `perf record -g` were `rwsem_spin_on_owner` under `openat`.
 */
const REBUILD_WRITER_THREADS = 1;

/**
 * When the writer thread has this many records queued, the main thread
 * compresses a record's files itself before sending them, so the thread
 * only creates files while the main thread renders and compresses: the two
 * cores share the work whichever side is behind. Two messages' worth
 * (publish-pool.ts sends up to 16 records per message): with 8, about half
 * a message, the main thread compressed more than the thread (15 s against
 * 12 s of a 100k rebuild in `--cpu-prof`) while the thread waited 9 s; 64
 * left the thread behind (21 s of the machine idle). See bench/HISTORY.md, Rebuild and static search.
 */
const COMPRESS_WHEN_QUEUED = 32;

/**
 * Renders the target's records in batches of REBUILD_BATCH (each under its
 * records' locks, as incremental renders take them, so a rebuild never
 * overwrites a newer render with an older read). The files are compressed
 * and written by a worker thread (projections/publish-pool.ts); a kind whose
 * folder is missing or empty is written into a staging folder and renamed
 * into place at the end (rebuild-staging.ts). A full
 * rebuild also removes projections of records that no longer exist; a
 * targeted one removes a missing record's.
 */
export async function rebuild(
  pool: pg.Pool,
  html: HtmlRenderer,
  dir: string,
  target: RebuildTarget,
  onProgress: (p: RebuildProgress) => void = () => {},
): Promise<RenderCounts> {
  const all = target.id && target.type ? [{ type: target.type, id: target.id }] : await listAllRecords(pool);
  const records = target.type && !target.id ? all.filter((r) => r.type === target.type) : all;
  const counts = emptyCounts();
  onProgress({ done: 0, total: records.length });
  // A full or per-kind rebuild stages the kinds whose folders are missing or empty (rebuild-staging.ts).
  const staging = target.id
    ? null
    : prepareStaging(
        dir,
        records.map((r) => r.type),
      );
  const threads = createThreadedWriter(REBUILD_WRITER_THREADS, { compressWhenQueued: COMPRESS_WHEN_QUEUED });
  const writer = staging ? stagingWriter(threads, staging) : threads;
  try {
    let next = 0;
    let done = 0;
    const lane = async () => {
      for (let start = next; start < records.length; start = next) {
        next += REBUILD_BATCH;
        const batch = records.slice(start, start + REBUILD_BATCH);
        await renderRecords(pool, html, dir, batch, counts, writer);
        done += batch.length;
        onProgress({ done, total: records.length });
      }
    };
    await Promise.all(Array.from({ length: BATCHES_IN_FLIGHT }, lane));
  } catch (error) {
    if (staging) abandonStaging(staging);
    throw error;
  } finally {
    await writer.close();
  }
  if (staging) await finishStaging(pool, html, dir, staging, counts);
  if (!target.type && !target.id) counts.removed += await removeOrphans(dir, new Set(records.map((r) => r.id)));
  // The static search re-indexes what changed: one record, or (any wider rebuild) a new base.
  if (counts.written + counts.removed > 0) await notePendingRecords(dir, records.length === 1 ? records : 'all');
  return counts;
}

/** Deletes projection files (and stray temp files) whose record is not in `live`. */
async function removeOrphans(dir: string, live: Set<string>): Promise<number> {
  let removed = 0;
  for (const folder of Object.values(COLLECTION)) {
    const names = await readdir(path.join(dir, folder)).catch(() => [] as string[]);
    for (const name of names) {
      const id = name.split('.')[0]!;
      if (!live.has(id) || name.endsWith('.tmp')) {
        await rm(pathInside(dir, `${folder}/${name}`), { force: true });
        removed++;
      }
    }
  }
  return removed;
}
