/**
 * Full rebuild: renders every record's projections and removes projection
 * files of records that no longer exist. Unchanged bytes are not rewritten
 * (see publish.ts), so a rebuild over a current directory writes nothing.
 */
import { opendir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { HtmlRenderer } from '../../projections/html.ts';
import { COLLECTION, type RecordRef } from '../../core/types.ts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { listAllDiscussionIds } from '../../db/queries/discussions.ts';
import { listAllIdentityIds } from '../../db/queries/identities.ts';
import { listAllProblemIds } from '../../db/queries/problems.ts';
import { listAllSolutionIds } from '../../db/queries/solutions.ts';
import { countRecords, existingRecordIds, listRecordIdsAfter } from '../../db/queries/record-pages.ts';
import { clearOwedRebuilds, rebuildStart } from '../../db/queries/owed-rebuilds.ts';
import { pathInside } from '../../projections/safe-path.ts';
import { emptyCounts, renderRecords, type RenderCounts } from '../render/render-record.ts';
import { notePendingRecords } from '../../static-search/tiers.ts';
import { createThreadedWriter } from '../../projections/publish-pool.ts';
import { abandonStaging, finishStaging, prepareStaging, stagingWriter } from './rebuild-staging.ts';

export interface RebuildProgress {
  done: number;
  total: number;
}

/** Every record, kind by kind, held at once: for tests and benchmarks; the rebuild pages instead (`recordPages`). */
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

/** The kinds in the order a full rebuild walks them. */
const KINDS: RecordRef['type'][] = ['problem', 'solution', 'discussion', 'agent'];

/**
 * The records of `types` a batch at a time, kind by kind in id order (keyset
 * pagination): the rebuild holds the batches in flight, never the list of
 * every id, so its memory does not grow with the corpus. Lanes may call
 * `next()` concurrently; an async generator answers the calls in turn.
 */
export async function* recordPages(
  db: Queryable,
  types: RecordRef['type'][],
  size: number,
): AsyncGenerator<RecordRef[]> {
  for (const type of types) {
    for (let after = ''; ; ) {
      const ids = await listRecordIdsAfter(db, type, after, size);
      if (ids.length > 0) yield ids.map((id): RecordRef => ({ type, id }));
      if (ids.length < size) break;
      after = ids.at(-1)!;
    }
  }
}

async function* onePage(refs: RecordRef[]): AsyncGenerator<RecordRef[]> {
  yield refs;
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
  const one = target.id && target.type ? [{ type: target.type, id: target.id }] : null;
  const full = !target.type && !target.id;
  // Every record is read after this: what was owed before it is paid once the rebuild is through.
  const startedAt = full ? await rebuildStart(pool) : null;
  const types = target.type ? [target.type] : KINDS;
  const sizes = one ? [1] : await Promise.all(types.map((type) => countRecords(pool, type)));
  const total = sizes.reduce((a, b) => a + b, 0);
  const counts = emptyCounts();
  onProgress({ done: 0, total });
  // A full or per-kind rebuild stages the kinds whose folders are missing or empty (rebuild-staging.ts).
  const staging = one
    ? null
    : prepareStaging(
        dir,
        types.filter((_, i) => sizes[i]! > 0),
      );
  const threads = createThreadedWriter(REBUILD_WRITER_THREADS, { compressWhenQueued: COMPRESS_WHEN_QUEUED });
  const writer = staging ? stagingWriter(threads, staging) : threads;
  const pages = one ? onePage(one) : recordPages(pool, types, REBUILD_BATCH);
  try {
    let done = 0;
    const lane = async () => {
      for (let page = await pages.next(); !page.done; page = await pages.next()) {
        await renderRecords(pool, html, dir, page.value, counts, writer);
        done += page.value.length;
        onProgress({ done, total: Math.max(total, done) });
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
  if (full) counts.removed += await removeOrphans(pool, dir);
  // The static search re-indexes what changed: one record, or (any wider rebuild) a new base.
  if (counts.written + counts.removed > 0) await notePendingRecords(dir, one ?? 'all');
  if (startedAt) await clearOwedRebuilds(pool, startedAt);
  return counts;
}

/** File names checked against the database at once when looking for orphans. */
const ORPHAN_BATCH = 2000;

/**
 * Deletes projection files (and stray temp files) whose record does not
 * exist. Each folder is read as a stream and its names checked against the
 * database a batch at a time, so neither the folder's listing nor the set of
 * live ids is ever held whole.
 */
async function removeOrphans(db: Queryable, dir: string): Promise<number> {
  let removed = 0;
  for (const [type, folder] of Object.entries(COLLECTION) as [RecordRef['type'], string][]) {
    const handle = await opendir(path.join(dir, folder)).catch(() => null);
    if (!handle) continue;
    let names: string[] = [];
    const sweep = async () => {
      const live = await existingRecordIds(db, type, [...new Set(names.map((name) => name.split('.')[0]!))]);
      for (const name of names) {
        if (!live.has(name.split('.')[0]!) || name.endsWith('.tmp')) {
          await rm(pathInside(dir, `${folder}/${name}`), { force: true });
          removed++;
        }
      }
      names = [];
    };
    for await (const entry of handle) {
      names.push(entry.name);
      if (names.length >= ORPHAN_BATCH) await sweep();
    }
    await sweep();
  }
  return removed;
}
