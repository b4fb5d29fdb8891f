/**
 * `npm run ops -- <command>`: the operator's tool.
 *   rebuild [--type problem|solution|discussion|agent] [--id ID]   re-render projections
 *   status                                                          queues and render lag
 * Runs against DATABASE_URL / REDIS_URL like the service does.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { COMMIT_QUEUE, RENDER_QUEUE } from '../core/queue-contract.ts';
import { createQueue, queueBackendOf } from '../core/queues.ts';
import { createAstroRenderer } from '../core/render/astro-renderer.ts';
import { COLLECTION, type RecordRef } from '../core/types.ts';
import { createPool } from '../db/pool.ts';
import { rebuild } from '../worker/jobs/rebuild.ts';
import { createProgress } from './progress.ts';
import { readOperatorStatus } from './status.ts';

const USAGE = `usage: npm run ops -- rebuild [--type ${Object.keys(COLLECTION).join('|')}] [--id ID]
       npm run ops -- status`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { type: { type: 'string' }, id: { type: 'string' } },
});
const command = positionals[0];
const type = values.type as RecordRef['type'] | undefined;
if (!command || !['rebuild', 'status'].includes(command) || (type && !(type in COLLECTION)) || (values.id && !type)) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
const pool = createPool(config.DATABASE_URL, 4);
try {
  if (command === 'status') {
    const backend = queueBackendOf(config);
    const queues = [COMMIT_QUEUE, RENDER_QUEUE].map((name) => createQueue(backend, name, true));
    try {
      console.log(JSON.stringify(await readOperatorStatus(pool, queues), null, 2));
    } finally {
      await Promise.all(queues.map((q) => q.close()));
    }
  } else {
    const renderer = await createAstroRenderer(config.ASTRO_ENTRY, pool);
    try {
      const started = performance.now();
      const counts = await rebuild(pool, renderer, config.PROJECTIONS_DIR, { type, id: values.id }, createProgress('rebuild'));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`rebuild done in ${seconds}s: ${counts.written} written, ${counts.unchanged} unchanged, ${counts.removed} removed`);
    } finally {
      await renderer.close();
    }
  }
} finally {
  await pool.end();
}
