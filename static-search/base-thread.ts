/**
 * The worker thread of base-tier.ts: builds and publishes one base tier,
 * posts its counts and exits (an error ends the thread and reaches the caller
 * as the Worker's 'error' event).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBaseTier } from './base-tier.ts';

const { dir, coversRun, shardPages, changed } = workerData as {
  dir: string;
  coversRun: number;
  shardPages: number;
  changed: string[] | null;
};
parentPort!.postMessage(await buildBaseTier(dir, coversRun, shardPages, changed));
