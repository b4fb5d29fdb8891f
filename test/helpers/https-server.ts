/**
 * A real https server on loopback, for what a test must serve over TLS (a
 * Client ID Metadata Document). Its certificate is made for this run by the
 * openssl command line into a temporary directory, and deleted with it: no
 * key is ever committed. `ca` is that certificate, for the one client that
 * should trust it; nothing else in the process does.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface HttpsServer {
  /** https://127.0.0.1:<port> */
  origin: string;
  /** The self-signed certificate (PEM), the only CA a client needs to trust this server. */
  ca: string;
  /** Answer GET `path` with this JSON document. */
  serve(path: string, document: unknown): void;
  /** The paths requested so far, in order. */
  requested: string[];
  close(): Promise<void>;
}

async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ak-tls-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startHttpsServer(): Promise<HttpsServer> {
  const { key, cert } = await selfSignedCertificate();
  const documents = new Map<string, string>();
  const requested: string[] = [];
  const server = createServer({ key, cert }, (req, res) => {
    const at = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    requested.push(at);
    const body = req.method === 'GET' ? documents.get(at) : undefined;
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: cert,
    serve: (at, document) => void documents.set(at, JSON.stringify(document)),
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
