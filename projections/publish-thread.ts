/**
 * A worker thread of publish-pool.ts: compresses and writes the projection
 * files it is sent, one message at a time, and answers each with its result.
 */
import { parentPort } from 'node:worker_threads';
import { removeProjectionWithSiblings, writeProjectionWithSiblings } from './precompress.ts';
import type { PublishReply, PublishTask } from './publish-pool.ts';

parentPort!.on('message', (task: PublishTask) => {
  let reply: PublishReply;
  try {
    const result = task.op === 'write'
      ? writeProjectionWithSiblings(task.dir, task.relative, task.bytes, task.contentType)
      : removeProjectionWithSiblings(task.dir, task.relative);
    reply = { id: task.id, result };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    reply = { id: task.id, error: { name, message } };
  }
  parentPort!.postMessage(reply);
});
