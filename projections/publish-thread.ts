/**
 * A worker thread of publish-pool.ts: compresses and writes the projection
 * files it is sent (up to 16 records' files per message, their bytes in one
 * transferred ArrayBuffer), one message at a time, and answers each with
 * every task's results.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runPublishTask, unpackTask, type PublishMessage, type PublishReply } from './publish-pool.ts';

/** This thread's count of tasks sent and not finished, shared with the sender (publish-pool.ts). */
const { queued } = workerData as { queued: Int32Array };

parentPort!.on('message', (message: PublishMessage) => {
  const results = message.tasks.map((task) => {
    try {
      return { result: runPublishTask(unpackTask(task, message.slab)) };
    } catch (error) {
      const { name, message: text } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      return { error: { name, message: text } };
    } finally {
      Atomics.sub(queued, 0, 1);
    }
  });
  parentPort!.postMessage({ id: message.id, results } satisfies PublishReply);
});
