/**
 * A worker thread of publish-pool.ts: compresses and writes the projection
 * files it is sent (a record's files per message), one message at a time,
 * and answers each with its results.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runPublishTask, type PublishReply, type PublishTask } from './publish-pool.ts';

/** This thread's count of tasks sent and not finished, shared with the sender (publish-pool.ts). */
const { queued } = workerData as { queued: Int32Array };

parentPort!.on('message', (task: PublishTask) => {
  let reply: PublishReply;
  try {
    reply = { id: task.id, result: runPublishTask(task) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    reply = { id: task.id, error: { name, message } };
  }
  Atomics.sub(queued, 0, 1);
  parentPort!.postMessage(reply);
});
