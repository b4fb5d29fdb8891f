/**
 * `node bench/compression-levels.ts <projections dir> [files per format]`:
 * CPU time and size of Brotli and gzip levels over a rebuilt folder's
 * projection files (HTML, JSON, Markdown), one thread, to choose the static
 * quality of core/encodings.ts. Levels from BR (default 9,7,6,5,4) and GZ
 * (default 9,6,4); Brotli's window sized to the input as encode() does.
 * Each level is timed in ROUNDS (default 5) rounds taking turns with the
 * others, and the fastest round is printed: the machine is shared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.argv[2];
if (!root) throw new Error('usage: node bench/compression-levels.ts <projections dir> [files per format]');
const limit = Number(process.argv[3] ?? 2000);
const byFormat: Record<string, Buffer[]> = { html: [], json: [], md: [] };
for (const folder of readdirSync(root)) {
  for (const name of readdirSync(path.join(root, folder))) {
    const format = /\.(html|json|md)$/.exec(name)?.[1];
    if (format && byFormat[format]!.length < limit) byFormat[format]!.push(readFileSync(path.join(root, folder, name)));
  }
}
const windowBits = (n: number) =>
  Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(n + 16))));
const brotli = (quality: number) => (b: Buffer) =>
  brotliCompressSync(b, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: b.byteLength,
      [constants.BROTLI_PARAM_LGWIN]: windowBits(b.byteLength),
    },
  });
const gzip = (level: number) => (b: Buffer) => gzipSync(b, { level });
const levels = (v: string | undefined, fallback: string) => (v ?? fallback).split(',').map(Number);
const variants: [string, (b: Buffer) => Buffer][] = [
  ...levels(process.env.BR, '9,7,6,5,4').map((q): [string, (b: Buffer) => Buffer] => [`br ${q}`, brotli(q)]),
  ...levels(process.env.GZ, '9,6,4').map((l): [string, (b: Buffer) => Buffer] => [`gzip ${l}`, gzip(l)]),
];
const rounds = Number(process.env.ROUNDS ?? 5);
for (const [format, files] of Object.entries(byFormat)) {
  const raw = files.reduce((sum, b) => sum + b.byteLength, 0);
  console.log(`${format}: ${files.length} files, ${(raw / files.length).toFixed(0)} B on average`);
  const fastest = new Map<string, number>();
  const sizes = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, compress] of variants) {
      for (const b of files.slice(0, 50)) compress(b);
      let bytes = 0;
      const before = process.cpuUsage();
      for (const b of files) bytes += compress(b).byteLength;
      const used = process.cpuUsage(before);
      fastest.set(name, Math.min(fastest.get(name) ?? Infinity, (used.user + used.system) / 1000 / files.length));
      sizes.set(name, bytes);
    }
  }
  for (const [name] of variants) {
    const bytes = sizes.get(name)!;
    console.log(
      `  ${name.padEnd(7)} ${fastest.get(name)!.toFixed(3)} ms/file  ${(bytes / files.length).toFixed(0)} B  ratio ${(bytes / raw).toFixed(3)}`,
    );
  }
}
