/**
 * The in-memory projection cache: bytes and strong ETag kept under the file's
 * identity, so a file replaced the way the worker replaces it (temp file +
 * rename) is served new from the next turn of the event loop (one stat per
 * file per turn), an unchanged one is never read again, and memory stays
 * within its byte bound.
 */
import { renameSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rename, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { encode } from '../../core/encodings.ts';
import { contentMtime, etagOf } from '../../core/etag.ts';
import { createFileCache } from '../../api/reads/projection-cache.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-cache-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** As the worker publishes: temp file, content-stamped mtime, rename over the target. */
async function publish(file: string, text: string) {
  const bytes = Buffer.from(text);
  const temp = `${file}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, bytes);
  const stamp = contentMtime(bytes);
  await utimes(temp, stamp, stamp);
  await rename(temp, file);
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the projection cache', () => {
  it("serves the bytes with their strong ETag, and a replaced file's new bytes at once", async () => {
    const cache = createFileCache(1024 * 1024);
    const file = path.join(dir, 'a.html');
    await publish(file, 'first version');
    const first = await cache.read(file);
    expect(first?.body.toString()).toBe('first version');
    expect(first?.etag).toBe(etagOf(Buffer.from('first version')));
    await publish(file, 'second version, longer');
    const second = await cache.read(file);
    expect(second?.body.toString()).toBe('second version, longer');
    expect(second?.etag).toBe(etagOf(Buffer.from('second version, longer')));
    // Same size, same mtime stamp would be a hash collision; a new inode alone is enough.
    await publish(file, 'second version, LONGER');
    expect((await cache.read(file))?.body.toString()).toBe('second version, LONGER');
  });

  it('stats a file once per turn of the event loop: a file replaced within a turn is seen from the next', async () => {
    const cache = createFileCache(1024 * 1024);
    const file = path.join(dir, 'turn.html');
    await publish(file, 'old');
    const old = await cache.read(file);
    await nextTurn();
    expect(cache.peek(file)).toBe(old);
    // Replaced between two requests read in the same turn: both get the turn's answer.
    const bytes = Buffer.from('new');
    writeFileSync(`${file}.tmp`, bytes);
    utimesSync(`${file}.tmp`, contentMtime(bytes), contentMtime(bytes));
    renameSync(`${file}.tmp`, file);
    expect(cache.peek(file)).toBe(old);
    await nextTurn();
    expect(cache.peek(file)).toBeUndefined();
    expect((await cache.read(file))?.body.toString()).toBe('new');
  });

  it('does not read or hash an unchanged file again', async () => {
    const cache = createFileCache(1024 * 1024);
    const file = path.join(dir, 'b.json');
    await publish(file, '{"a":1}');
    const first = await cache.read(file);
    // The very same entry, not a new read of equal bytes.
    for (let i = 0; i < 5; i++) expect(await cache.read(file)).toBe(first);
    // Rewritten in place (same inode), even with the old mtime put back: the ctime still tells.
    await writeFile(file, '{"a":2}');
    await utimes(file, first!.body.length, contentMtime(Buffer.from('{"a":1}')));
    expect((await cache.read(file))?.body.toString()).toBe('{"a":2}');
  });

  it('answers null for a missing or deleted file', async () => {
    const cache = createFileCache(1024 * 1024);
    const file = path.join(dir, 'c.md');
    expect(await cache.read(file)).toBeNull();
    await publish(file, '# c');
    expect(await cache.read(file)).not.toBeNull();
    await unlink(file);
    expect(await cache.read(file)).toBeNull();
    expect(await cache.read(dir)).toBeNull();
  });

  it('keeps at most its byte bound, dropping the least recently used', async () => {
    const cache = createFileCache(250);
    const files = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const file = path.join(dir, `lru-${i}.html`);
        await publish(file, String(i).repeat(100));
        return file;
      }),
    );
    const a = await cache.read(files[0]!);
    await cache.read(files[1]!);
    expect(await cache.read(files[0]!)).toBe(a);
    await cache.read(files[2]!); // 300 bytes would not fit: the least recently used (1) goes
    expect(await cache.read(files[0]!)).toBe(a);
    const again = await cache.read(files[1]!);
    expect(again?.body.toString()).toBe('1'.repeat(100));
    // A file larger than the whole bound is served, never kept.
    const big = path.join(dir, 'big.html');
    await publish(big, 'x'.repeat(400));
    expect((await cache.read(big))?.body.length).toBe(400);
  });

  it("makes a file's Brotli in memory, once per version, with the strong ETag of its bytes; a .br on disk is never read", async () => {
    const cache = createFileCache(1024 * 1024);
    const file = path.join(dir, 'page.html');
    const first = '<p>A page long enough to be compressed.</p>\n'.repeat(30);
    await publish(file, first);
    // A stale sibling an older worker left behind: not what is served.
    writeFileSync(`${file}.br`, 'stale bytes');
    const br = await cache.read(`${file}.br`);
    expect(brotliDecompressSync(br!.body).toString()).toBe(first);
    // The very bytes (and so the ETag) the worker's .br sibling had: same function, same quality.
    expect(br!.body.equals(encode(Buffer.from(first), 'br', 'static'))).toBe(true);
    expect(br!.etag).toBe(etagOf(br!.body));
    expect(br!.etag).not.toBe((await cache.read(file))!.etag);
    expect(cache.peek(`${file}.br`)).toBe(br);
    expect(await cache.read(`${file}.br`)).toBe(br);
    // A new version of the file gets its own Brotli.
    const second = '<p>The second version of that page, as long.</p>\n'.repeat(30);
    await publish(file, second);
    await nextTurn();
    expect(cache.peek(`${file}.br`)).toBeUndefined();
    const again = await cache.read(`${file}.br`);
    expect(brotliDecompressSync(again!.body).toString()).toBe(second);
    expect(again!.etag).not.toBe(br!.etag);
  });

  it('has no Brotli of a file too small to compress or of a missing one', async () => {
    const cache = createFileCache(1024 * 1024);
    const small = path.join(dir, 'small.json');
    await publish(small, '{"small":true}');
    expect(await cache.read(`${small}.br`)).toBeNull();
    expect(cache.peek(`${small}.br`)).toBeNull();
    expect(await cache.read(path.join(dir, 'missing.md.br'))).toBeNull();
  });

  it('counts the Brotli it keeps in its byte bound', async () => {
    const texts = [0, 1].map((i) => Array.from({ length: 60 }, (_, n) => `line ${i}-${(n * 7919) % 1000}`).join('\n'));
    const files = texts.map((_, i) => path.join(dir, `bound-${i}.md`));
    await Promise.all(files.map((file, i) => publish(file, texts[i]!)));
    const brSize = encode(Buffer.from(texts[0]!), 'br', 'static').byteLength;
    // Room for both files, not for both and the first one's Brotli.
    const cache = createFileCache(Buffer.byteLength(texts[0]!) + Buffer.byteLength(texts[1]!) + brSize - 1);
    const a = await cache.read(files[0]!);
    const b = await cache.read(files[1]!);
    await nextTurn();
    expect(cache.peek(files[0]!)).toBe(a);
    expect(cache.peek(files[1]!)).toBe(b);
    await cache.read(`${files[0]}.br`);
    await nextTurn();
    // The first file (now the most recent) and its Brotli stay; the second went to make room.
    expect(cache.peek(files[0]!)).toBe(a);
    expect(cache.peek(files[1]!)).toBeUndefined();
  });
});
