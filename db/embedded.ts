/**
 * The embedded PostgreSQL for machines with only Node.js: PGlite (Postgres
 * compiled to WebAssembly) with pg_trgm, persisted under a data directory and
 * served on a loopback socket so the API, the worker and BullMQ all keep using
 * the ordinary `pg` driver. One process hosts it; see README for its limits.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: MAX_CONNECTIONS });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
