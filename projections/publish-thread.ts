/**
 * A worker thread of publish-pool.ts: compresses and writes the projection
 * files it is sent (a record's files per message), one message at a time,
 * and answers each with its results.
 */
import { parentPort } from 'node:worker_threads';
import { runPublishTask, type PublishReply, type PublishTask } from './publish-pool.ts';

parentPort!.on('message', (task: PublishTask) => {
  let reply: PublishReply;
  try {
    reply = { id: task.id, result: runPublishTask(task) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    reply = { id: task.id, error: { name, message } };
  }
  parentPort!.postMessage(reply);
});
