/**
 * The embedded PostgreSQL for machines with only Node.js: PGlite (Postgres
 * compiled to WebAssembly) with pg_trgm, persisted under a data directory and
 * served on a loopback socket so the API, the worker and BullMQ all keep using
 * the ordinary `pg` driver. One process hosts it; see docs/operating.md for its limits.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import { SessionQueue } from './embedded-session.ts';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Connections the socket multiplexes onto the single PGlite session. */
const MAX_CONNECTIONS = 64;

export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir, extensions: { pg_trgm, unaccent } });
  // All socket connections share PGlite's one session, and the socket ignores
  // the startup option BullMQ pins its schema with; so the session resolves
  // BullMQ's names after ours (no names collide).
  await db.exec('SET search_path TO public, bullmq');
  const handlers = new Set<PGLiteSocketHandler>();
  // pglite-socket's handlers with a queue that keeps each exchange whole (embedded-session.ts);
  // the package's server takes no queue of its own choosing, so the listener is ours (a few lines).
  const queryQueue = new SessionQueue(db) as unknown as PGLiteSocketHandlerOptions['queryQueue'];
  const server = createServer(function connect(socket: Socket) {
    if (handlers.size >= MAX_CONNECTIONS) {
      socket.end('Too many connections\n');
      return;
    }
    const handler = new PGLiteSocketHandler({ queryQueue, closeOnDetach: true });
    handlers.add(handler);
    for (const event of ['close', 'error']) handler.addEventListener(event, () => handlers.delete(handler));
    handler.attach(socket).catch(() => {
      handlers.delete(handler);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await Promise.all([...handlers].map((h) => h.detach(true)));
      handlers.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
