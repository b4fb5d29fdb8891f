import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from '../../core/encodings.ts';
import { etagOf } from '../../core/etag.ts';
import { writeProjectionWithSiblings } from '../../projections/precompress.ts';
import { admit, eventually, problemBody, send } from '../helpers/client.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let problemId: string;

/** A GET whose body is left as sent (fetch would decode a Content-Encoding). */
function rawGet(p: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }>(
    (resolve, reject) => {
      httpGet(stack.base + p, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string | undefined>,
            body: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}
const file = (relative: string) => path.join(stack.config.PROJECTIONS_DIR, relative);
const decode = (body: Buffer, encoding?: string) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

beforeAll(async () => {
  stack = await startStack();
  const agent = await admit(stack.base);
  problemId = (
    await send(
      stack.base,
      agent,
      'POST',
      '/api/problems',
      problemBody({
        title: 'Compressed projections here',
        body: 'A body long enough to be worth compressing. '.repeat(20),
      }),
    )
  ).body.resource.id;
  await eventually(() =>
    access(file(`problems/${problemId}.md`)).then(
      () => true,
      () => false,
    ),
  );
});
afterAll(() => stack.close());

describe('precompressed projections', () => {
  it('are written by the worker beside each projection as a .gz that decodes to the file, and no .br', async () => {
    for (const suffix of ['.html', '.json', '.md']) {
      const identity = await readFile(file(`problems/${problemId}${suffix}`));
      expect(gunzipSync(await readFile(file(`problems/${problemId}${suffix}.gz`))).equals(identity)).toBe(true);
      // nginx sends only the .gz; the service makes Brotli in memory (api/reads/projection-cache.ts).
      await expect(access(file(`problems/${problemId}${suffix}.br`))).rejects.toThrow();
    }
  });

  it('send Brotli made in memory, the same bytes a .br sibling had, whatever an older worker left on disk', async () => {
    const json = file(`problems/${problemId}.json`);
    const identity = await readFile(json);
    await writeFile(`${json}.br`, 'stale bytes an older worker left');
    try {
      const br = await rawGet(`/problems/${problemId}.json`, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.equals(encode(identity, 'br', 'static'))).toBe(true);
      expect(br.headers.etag).toBe(etagOf(br.body));
    } finally {
      await rm(`${json}.br`, { force: true });
    }
  });

  it('lose a .br an older worker left once the file changes, and keep it while the bytes are the same', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ak-retired-br-'));
    try {
      const text = (n: number) =>
        Buffer.from(`# Version ${n}\n\n${'A line long enough to be compressed. '.repeat(20)}\n`);
      writeProjectionWithSiblings(dir, 'problems/a.md', text(1), 'text/markdown; charset=utf-8');
      await writeFile(path.join(dir, 'problems/a.md.br'), encode(text(1), 'br', 'static'));
      writeProjectionWithSiblings(dir, 'problems/a.md', text(1), 'text/markdown; charset=utf-8');
      await access(path.join(dir, 'problems/a.md.br'));
      writeProjectionWithSiblings(dir, 'problems/a.md', text(2), 'text/markdown; charset=utf-8');
      await expect(access(path.join(dir, 'problems/a.md.br'))).rejects.toThrow();
      expect(gunzipSync(await readFile(path.join(dir, 'problems/a.md.gz'))).equals(text(2))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are served by the encoding the client prefers, Brotli on a tie, each with its own strong ETag and Vary: Accept-Encoding', async () => {
    const url = `/problems/${problemId}.json`;
    const identity = await rawGet(url);
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(url, { 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    expect([
      identity.headers['content-encoding'],
      br.headers['content-encoding'],
      gzip.headers['content-encoding'],
    ]).toEqual([undefined, 'br', 'gzip']);
    for (const answer of [identity, br, gzip]) {
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(answer.headers.etag).toBe(etagOf(answer.body));
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decode(answer.body, answer.headers['content-encoding']).equals(identity.body)).toBe(true);
    }
    expect(new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    expect(br.body.length).toBeLessThan(identity.body.length);
  });

  it('keep 304 working per encoding: the ETag of one encoding does not match another', async () => {
    const url = `/problems/${problemId}`;
    const br = await rawGet(url, { 'accept-encoding': 'br' });
    expect((await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! })).status).toBe(304);
    const gzipWithBrTag = await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! });
    expect(gzipWithBrTag.status).toBe(200);
    expect(gzipWithBrTag.headers['content-encoding']).toBe('gzip');
  });
});

describe('dynamic answers', () => {
  it('are compressed too, with an ETag of their own and 304 on it', async () => {
    for (const url of ['/api/v1/openapi.json', '/api/problems', '/api/v1/search?q=Compressed']) {
      const identity = await rawGet(url);
      const gzip = await rawGet(url, { 'accept-encoding': 'gzip' });
      expect([url, gzip.headers['content-encoding']]).toEqual([url, 'gzip']);
      expect(gzip.headers.vary).toContain('Accept-Encoding');
      expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
      expect(gzip.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-gzip"$/);
      expect(gzip.headers.etag).not.toBe(identity.headers.etag);
      expect((await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! })).status).toBe(304);
    }
    const doc = await rawGet('/openapi.json', { 'accept-encoding': 'br' });
    const identity = await rawGet('/openapi.json');
    console.info(`OpenAPI document: ${identity.body.length} bytes, ${doc.body.length} with Brotli`);
    expect(doc.body.length * 4).toBeLessThan(identity.body.length);
  });

  it('are left alone when small, when the client asks for identity, and for binary files', async () => {
    const small = await rawGet('/robots.txt', { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((await rawGet('/api/v1', { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect(
      (await rawGet('/api/v1', { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding'],
    ).toBeUndefined();
  });
});
