/**
 * Renders site routes through the built Astro app (`astro build` output), so
 * the full build, the worker's incremental renders and the service's dynamic
 * renders all run one set of templates and give the same bytes.
 *
 * The @astrojs/node middleware handler speaks Node's req/res, so it is hosted
 * on a private loopback server and asked over HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Queryable } from '../../db/pool.ts';

export interface Rendered {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Renderer {
  render(pathAndQuery: string): Promise<Rendered>;
  close(): Promise<void>;
}

type NodeHandler = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: App.Locals) => Promise<void>;

export async function createAstroRenderer(entryPath: string, db: Queryable): Promise<Renderer> {
  const entry = (await import(pathToFileURL(path.resolve(entryPath)).href)) as { handler: NodeHandler };
  const server: Server = createServer((req, res) => {
    const notFound = () => {
      res.statusCode = 404;
      res.end();
    };
    void entry.handler(req, res, notFound, { db });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    async render(pathAndQuery: string): Promise<Rendered> {
      const response = await fetch(origin + pathAndQuery, { redirect: 'manual' });
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        body: Buffer.from(await response.arrayBuffer()),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
