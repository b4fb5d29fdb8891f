/**
 * `npm start` on one machine: migrates, then runs the API and one worker as
 * two processes. With no DATABASE_URL it first hosts the embedded PostgreSQL
 * here; with no REDIS_URL the queues run on PostgreSQL. SIGINT/SIGTERM are
 * forwarded (the children drain); if either child dies the other is stopped
 * too, so a supervisor sees the failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadConfig } from '../core/config.ts';
import { prepareQueueStore, queueBackendOf } from '../core/queues.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';

const config = loadConfig();
let embedded: EmbeddedPostgres | null = null;
if (config.EMBEDDED_DATABASE) {
  embedded = await startEmbeddedPostgres(config.EMBEDDED_DATA_DIR, config.EMBEDDED_PG_PORT);
  console.log(`embedded PostgreSQL (PGlite) on ${embedded.url.replace(/^postgres:\/\/[^@]*@/, '')}, data in ${config.EMBEDDED_DATA_DIR}`);
} else {
  await ensureDatabase(config.DATABASE_URL);
}
const pool = createPool(config.DATABASE_URL, 1);
const applied = await migrate(pool);
await prepareQueueStore(queueBackendOf(config), pool);
await pool.end();
if (applied.length) console.log(`applied migrations ${applied.join(', ')}`);
if (!config.REDIS_URL) console.log('no REDIS_URL: queues and rate limits run on PostgreSQL');

const env = { ...process.env, DATABASE_URL: config.DATABASE_URL };
const children: ChildProcess[] = ['api/server.ts', 'worker/main.ts'].map((entry) =>
  spawn(process.execPath, [entry], { stdio: 'inherit', env }),
);

let exiting = false;
function stopAll(signal: NodeJS.Signals) {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    exiting = true;
    stopAll(signal);
  });
}
let running = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    running--;
    if (!exiting && code !== 0) {
      exiting = true;
      process.exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (running === 0) void (embedded?.stop() ?? Promise.resolve()).finally(() => process.exit(process.exitCode ?? 0));
  });
}
