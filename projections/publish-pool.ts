/**
 * Where projection files are compressed and written: inline (the worker's
 * per-write renders, a few files at a time) or in worker threads (a rebuild,
 * where Brotli, gzip and the file system calls are most of the work and the
 * main thread is left to read views and render them). Both run the same
 * functions (precompress.ts), so both give the same files.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { removeProjectionWithSiblings, writeProjectionWithSiblings } from './precompress.ts';
import type { WriteResult } from './publish-file.ts';

export interface ProjectionWriter {
  /** Writes `relative` and its compressed siblings (unchanged bytes are left alone). */
  write(dir: string, relative: string, bytes: Buffer, contentType: string): Promise<WriteResult>;
  /** Removes `relative` and its siblings; true when the file existed. */
  remove(dir: string, relative: string): Promise<boolean>;
  close(): Promise<void>;
}

type Task =
  | { op: 'write'; dir: string; relative: string; bytes: Uint8Array; contentType: string }
  | { op: 'remove'; dir: string; relative: string };
export type PublishTask = Task & { id: number };
export type PublishReply =
  | { id: number; result: WriteResult | boolean }
  | { id: number; error: { name: string; message: string } };

export const inlineWriter: ProjectionWriter = {
  write: async (dir, relative, bytes, contentType) => writeProjectionWithSiblings(dir, relative, bytes, contentType),
  remove: async (dir, relative) => removeProjectionWithSiblings(dir, relative),
  close: async () => {},
};

/** One thread per core: the main thread mostly waits on the database and on these. */
export const defaultWriterThreads = (): number => availableParallelism();

interface Pending {
  resolve(value: WriteResult | boolean): void;
  reject(error: Error): void;
}

/**
 * `threads` worker threads, each task sent to the one with the fewest
 * outstanding. A thread that dies fails its outstanding tasks and every later
 * one, so a rebuild stops rather than silently skipping files.
 */
export function createThreadedWriter(threads = defaultWriterThreads()): ProjectionWriter {
  let nextId = 0;
  let failure: Error | null = null;
  const lanes = Array.from({ length: Math.max(1, threads) }, () => {
    const worker = new Worker(new URL('./publish-thread.ts', import.meta.url));
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
    return { worker, pending };
  });
  const send = (task: Task): Promise<WriteResult | boolean> => {
    if (failure) return Promise.reject(failure);
    const lane = lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      lane.pending.set(id, { resolve, reject });
      lane.worker.postMessage({ ...task, id });
    });
  };
  return {
    write: (dir, relative, bytes, contentType) => send({ op: 'write', dir, relative, bytes, contentType }) as Promise<WriteResult>,
    remove: (dir, relative) => send({ op: 'remove', dir, relative }) as Promise<boolean>,
    async close() {
      await Promise.all(lanes.map((l) => l.worker.terminate()));
    },
  };
}
