/**
 * Where projection files are compressed and written: inline (the worker's
 * per-write renders, a few files at a time) or in worker threads (a rebuild,
 * where Brotli, gzip and the file system calls are most of the work and the
 * main thread is left to read views and render them; it compresses too when
 * the threads fall behind, `compressWhenQueued`). Both run the same
 * functions (precompress.ts), so both give the same files.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  removeProjectionWithSiblings,
  siblingsOf,
  writeFreshProjectionWithSiblings,
  writeProjectionWithSiblings,
  type Siblings,
} from './precompress.ts';
import type { WriteResult } from './publish-file.ts';

/** One file to publish: its path under the directory, its bytes and its media type. */
export interface ProjectionFile {
  relative: string;
  bytes: Uint8Array;
  contentType: string;
  /** Its compressed siblings when already made (a fresh write only; see createThreadedWriter). */
  encoded?: Siblings;
}

export interface WriteOptions {
  /**
   * `dir` is a staging folder that no reader sees and that holds none of
   * these files yet: each is written straight to its name (no temp file,
   * no rename, no compare). See worker/jobs/rebuild-staging.ts.
   */
  fresh?: boolean;
}

export interface ProjectionWriter {
  /** Writes each file and its compressed siblings (unchanged bytes are left alone); one result per file. */
  write(dir: string, files: ProjectionFile[], options?: WriteOptions): Promise<WriteResult[]>;
  /** Removes each file and its siblings; true for each file that existed. */
  remove(dir: string, relatives: string[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** One task: a record's files (or a removal), carried out where it is called or in a writer thread. */
type Task =
  | { op: 'write'; dir: string; files: ProjectionFile[]; fresh: boolean }
  | { op: 'remove'; dir: string; relatives: string[] };
type TaskResult = WriteResult[] | boolean[];

/**
 * One message to a writer thread: up to MESSAGE_TASKS tasks, their files'
 * bytes (and siblings made by the sender) packed in one ArrayBuffer that is
 * transferred, each file naming its range. One message per record, each
 * file's bytes in an ArrayBuffer of its own, cost the main thread 3.9 s of a
 * 100k rebuild's 62 s (`postMessage`, copying, waking up for each reply).
 */
export interface PublishMessage {
  id: number;
  tasks: PackedTask[];
  slab: ArrayBuffer;
}
type PackedFile = Omit<ProjectionFile, 'bytes' | 'encoded'> & {
  at: number;
  length: number;
  gzipAt?: number;
  gzipLength?: number;
};
export type PackedTask =
  | { op: 'write'; dir: string; files: PackedFile[]; fresh: boolean }
  | { op: 'remove'; dir: string; relatives: string[] };
export type PublishReply =
  | { id: number; results: ({ result: TaskResult } | { error: { name: string; message: string } })[] }
  | { id: number; error: { name: string; message: string } };

/** Carries out one task where it is called: inline, or in a writer thread (publish-thread.ts). */
export function runPublishTask(task: Task): TaskResult {
  if (task.op === 'remove') return task.relatives.map((relative) => removeProjectionWithSiblings(task.dir, relative));
  if (task.fresh)
    return task.files.map((f) =>
      writeFreshProjectionWithSiblings(task.dir, f.relative, f.bytes, f.contentType, f.encoded),
    );
  return task.files.map((f) => writeProjectionWithSiblings(task.dir, f.relative, f.bytes, f.contentType));
}

/** The task a packed one stands for, its files viewing `slab` (publish-thread.ts). */
export function unpackTask(task: PackedTask, slab: ArrayBuffer): Task {
  if (task.op === 'remove') return task;
  return {
    ...task,
    files: task.files.map((f) => ({
      relative: f.relative,
      contentType: f.contentType,
      bytes: new Uint8Array(slab, f.at, f.length),
      ...(f.gzipAt !== undefined && { encoded: { gzip: new Uint8Array(slab, f.gzipAt, f.gzipLength) } }),
    })),
  };
}

export const inlineWriter: ProjectionWriter = {
  write: async (dir, files, options) =>
    runPublishTask({ op: 'write', dir, files, fresh: options?.fresh ?? false }) as WriteResult[],
  remove: async (dir, relatives) => runPublishTask({ op: 'remove', dir, relatives }) as boolean[],
  close: async () => {},
};

/** One thread per core: the main thread mostly waits on the database and on these. */
export const defaultWriterThreads = (): number => availableParallelism();

export interface ThreadedWriterOptions {
  /**
   * When every thread has at least this many tasks queued, a fresh write's
   * files are compressed by the calling thread before they are sent, so the
   * writer threads only create files. Off (Infinity) by default.
   */
  compressWhenQueued?: number;
}

/**
 * The writer thread's young generation, in MiB. V8 sizes it from the
 * machine's memory otherwise (up to 128 MiB of new space on a 23.5 GiB
 * machine; 32 MiB of it was resident after a 15,000-record rebuild). The
 * thread only unpacks each message and compresses into buffers outside the
 * heap, so little of what it allocates survives a scavenge, and a small
 * young generation costs it no time (4 MiB of new space in use, against 32).
 * A `--max-semi-space-size` on the command line (`npm run ops` gives one) overrides this.
 */
const WRITER_YOUNG_GENERATION_MB = 6;

/** Tasks per message at most; a message also goes as soon as the sender's current turn of the event loop ends. */
const MESSAGE_TASKS = 16;

interface Pending {
  task: Task;
  resolve(value: TaskResult): void;
  reject(error: Error): void;
}

/** Packs the files' bytes of `pending` tasks into one ArrayBuffer; each file names its range. */
function pack(pending: Pending[]): { tasks: PackedTask[]; slab: ArrayBuffer } {
  let size = 0;
  for (const { task } of pending) {
    if (task.op === 'write') for (const f of task.files) size += f.bytes.byteLength + (f.encoded?.gzip.byteLength ?? 0);
  }
  const slab = new ArrayBuffer(size);
  const into = new Uint8Array(slab);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    into.set(bytes, at);
    at += bytes.byteLength;
    return at - bytes.byteLength;
  };
  const tasks = pending.map(({ task }): PackedTask => {
    if (task.op === 'remove') return task;
    return {
      op: 'write',
      dir: task.dir,
      fresh: task.fresh,
      files: task.files.map((f) => ({
        relative: f.relative,
        contentType: f.contentType,
        at: put(f.bytes),
        length: f.bytes.byteLength,
        ...(f.encoded && { gzipAt: put(f.encoded.gzip), gzipLength: f.encoded.gzip.byteLength }),
      })),
    };
  });
  return { tasks, slab };
}

/**
 * `threads` worker threads, each message sent to the one with the fewest
 * tasks outstanding. A thread that dies fails its outstanding tasks and every
 * later one, so a rebuild stops rather than silently skipping files.
 */
export function createThreadedWriter(
  threads = defaultWriterThreads(),
  options: ThreadedWriterOptions = {},
): ProjectionWriter {
  const compressWhenQueued = options.compressWhenQueued ?? Infinity;
  let nextId = 0;
  let failure: Error | null = null;
  const lanes = Array.from({ length: Math.max(1, threads) }, () => {
    // Tasks sent and not finished, counted down by the thread itself: current even while this thread is busy
    // (its replies wait for this thread's event loop).
    const queued = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./publish-thread.ts', import.meta.url), {
      workerData: { queued },
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    const sent = new Map<number, Pending[]>();
    const fail = (error: Error) => {
      failure ??= error;
      for (const tasks of sent.values()) for (const p of tasks) p.reject(error);
      sent.clear();
    };
    worker.on('message', (reply: PublishReply) => {
      const tasks = sent.get(reply.id);
      if (!tasks) return;
      sent.delete(reply.id);
      const errorOf = (e: { name: string; message: string }) => Object.assign(new Error(e.message), { name: e.name });
      tasks.forEach((p, i) => {
        const outcome = 'results' in reply ? reply.results[i]! : { error: reply.error };
        if ('error' in outcome) p.reject(errorOf(outcome.error));
        else p.resolve(outcome.result);
      });
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (sent.size) fail(new Error(`projection writer thread exited with code ${code}`));
    });
    return { worker, sent, queued };
  });
  const queuedOn = (lane: (typeof lanes)[number]) => Atomics.load(lane.queued, 0);
  let outbox: Pending[] = [];
  const flush = () => {
    const pending = outbox;
    outbox = [];
    if (pending.length === 0) return;
    if (failure) {
      for (const p of pending) p.reject(failure);
      return;
    }
    const lane = lanes.reduce((a, b) => (queuedOn(b) < queuedOn(a) ? b : a));
    const id = nextId++;
    let counted = false;
    try {
      const { tasks, slab } = pack(pending);
      lane.sent.set(id, pending);
      Atomics.add(lane.queued, 0, pending.length);
      counted = true;
      lane.worker.postMessage({ id, tasks, slab } satisfies PublishMessage, [slab]);
    } catch (error) {
      // Packing or sending failed (memory for the slab, a task that cannot be cloned): every task of the
      // message is answered with it. Thrown from here, it would reach only the caller whose send filled the
      // message (or, from setImmediate, no one) and leave the others waiting for ever.
      lane.sent.delete(id);
      if (counted) Atomics.sub(lane.queued, 0, pending.length);
      for (const p of pending) p.reject(error as Error);
    }
  };
  const send = (task: Task): Promise<TaskResult> => {
    if (failure) return Promise.reject(failure);
    if (task.op === 'write' && task.fresh && Math.min(...lanes.map(queuedOn)) >= compressWhenQueued) {
      task = { ...task, files: task.files.map((f) => ({ ...f, encoded: siblingsOf(f.bytes, f.contentType) })) };
    }
    return new Promise((resolve, reject) => {
      outbox.push({ task, resolve, reject });
      if (outbox.length >= MESSAGE_TASKS) flush();
      else if (outbox.length === 1) setImmediate(flush);
    });
  };
  return {
    write: (dir, files, options) =>
      send({ op: 'write', dir, files, fresh: options?.fresh ?? false }) as Promise<WriteResult[]>,
    remove: (dir, relatives) => send({ op: 'remove', dir, relatives }) as Promise<boolean[]>,
    async close() {
      await Promise.all(lanes.map((l) => l.worker.terminate()));
    },
  };
}
