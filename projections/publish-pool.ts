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
import { removeProjectionWithSiblings, siblingsOf, writeFreshProjectionWithSiblings, writeProjectionWithSiblings, type Siblings } from './precompress.ts';
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

/** One message to a writer thread: a record's files at once, so a rebuild sends a third of the messages. */
type Task =
  | { op: 'write'; dir: string; files: ProjectionFile[]; fresh: boolean }
  | { op: 'remove'; dir: string; relatives: string[] };
export type PublishTask = Task & { id: number };
export type PublishReply =
  | { id: number; result: WriteResult[] | boolean[] }
  | { id: number; error: { name: string; message: string } };

/** Carries out one task where it is called: inline, or in a writer thread (publish-thread.ts). */
export function runPublishTask(task: Task): WriteResult[] | boolean[] {
  if (task.op === 'remove') return task.relatives.map((relative) => removeProjectionWithSiblings(task.dir, relative));
  if (task.fresh) return task.files.map((f) => writeFreshProjectionWithSiblings(task.dir, f.relative, f.bytes, f.contentType, f.encoded));
  return task.files.map((f) => writeProjectionWithSiblings(task.dir, f.relative, f.bytes, f.contentType));
}

export const inlineWriter: ProjectionWriter = {
  write: async (dir, files, options) => runPublishTask({ op: 'write', dir, files, fresh: options?.fresh ?? false }) as WriteResult[],
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
 * `bytes` in an ArrayBuffer of its own and exactly its size, added to
 * `transfer` so it moves to the thread without a copy. Posting a view
 * clones its whole ArrayBuffer: a small Buffer is a slice of Node's 8 KiB
 * pool and zlib's output a slice of a 16 KiB chunk, so posting them as they
 * are copies 8-16 KiB per file of 1-3 KiB.
 */
function ownedCopy(bytes: Uint8Array, transfer: ArrayBuffer[]): Uint8Array {
  const copy = new Uint8Array(bytes);
  transfer.push(copy.buffer);
  return copy;
}

interface Pending {
  resolve(value: WriteResult[] | boolean[]): void;
  reject(error: Error): void;
}

/**
 * `threads` worker threads, each task sent to the one with the fewest
 * outstanding. A thread that dies fails its outstanding tasks and every later
 * one, so a rebuild stops rather than silently skipping files.
 */
export function createThreadedWriter(threads = defaultWriterThreads(), options: ThreadedWriterOptions = {}): ProjectionWriter {
  const compressWhenQueued = options.compressWhenQueued ?? Infinity;
  let nextId = 0;
  let failure: Error | null = null;
  const lanes = Array.from({ length: Math.max(1, threads) }, () => {
    // Tasks sent and not finished, counted down by the thread itself: current even while this thread is busy
    // (its replies wait for this thread's event loop).
    const queued = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./publish-thread.ts', import.meta.url), { workerData: { queued } });
    const pending = new Map<number, Pending>();
    const fail = (error: Error) => {
      failure ??= error;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    worker.on('message', (reply: PublishReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
      else p.resolve(reply.result);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => { if (pending.size) fail(new Error(`projection writer thread exited with code ${code}`)); });
    return { worker, pending, queued };
  });
  const queuedOn = (lane: (typeof lanes)[number]) => Atomics.load(lane.queued, 0);
  const send = (task: Task): Promise<WriteResult[] | boolean[]> => {
    if (failure) return Promise.reject(failure);
    const lane = lanes.reduce((a, b) => (queuedOn(b) < queuedOn(a) ? b : a));
    const transfer: ArrayBuffer[] = [];
    if (task.op === 'write') {
      const compress = task.fresh && queuedOn(lane) >= compressWhenQueued;
      const own = (bytes: Uint8Array) => ownedCopy(bytes, transfer);
      task = {
        ...task,
        files: task.files.map((f) => {
          const encoded = compress ? siblingsOf(f.bytes, f.contentType) : undefined;
          return {
            relative: f.relative, bytes: own(f.bytes), contentType: f.contentType,
            ...(encoded && { encoded: { gzip: own(encoded.gzip) } }),
          };
        }),
      };
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      lane.pending.set(id, { resolve, reject });
      Atomics.add(lane.queued, 0, 1);
      lane.worker.postMessage({ ...task, id }, transfer);
    });
  };
  return {
    write: (dir, files, options) => send({ op: 'write', dir, files, fresh: options?.fresh ?? false }) as Promise<WriteResult[]>,
    remove: (dir, relatives) => send({ op: 'remove', dir, relatives }) as Promise<boolean[]>,
    async close() {
      await Promise.all(lanes.map((l) => l.worker.terminate()));
    },
  };
}
