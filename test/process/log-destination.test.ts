/**
 * The batched log destination (infra/log-destination.ts): lines keep their
 * order, a full batch goes out at once, a partial one shortly after, and
 * whatever is pending when the process exits (process.exit after a drain, an
 * uncaught exception) is written before it goes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogDestination } from '../../infra/log-destination.ts';
import { eventually } from '../helpers/client.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-logdest-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `{"n":${from + i}}\n`);
const readLines = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);

/** A process that writes `count` lines to `file`, then ends as `how` says. */
function childWriting(file: string, count: number, how: 'exit' | 'throw' | 'return') {
  const ending = { exit: 'process.exit(0);', throw: 'throw new Error("boom");', return: '' }[how];
  const script = `
    import { createLogDestination } from ${JSON.stringify(path.resolve('infra/log-destination.ts'))};
    const destination = createLogDestination(${JSON.stringify(file)});
    for (let i = 0; i < ${count}; i++) destination.write(JSON.stringify({ n: i }) + '\\n');
    ${ending}`;
  return promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
}

describe('the batched log destination', () => {
  it('writes a full batch at once and the rest on flush, in order', async () => {
    const file = path.join(dir, 'batch.log');
    const destination = createLogDestination(file, { maxBytes: 1000, flushMs: 60_000 });
    const written = lines(200); // 8–10 bytes each: the batch fills about halfway
    for (const line of written.slice(0, 10)) destination.write(line);
    expect(await readLines(file)).toEqual([]);
    for (const line of written.slice(10)) destination.write(line);
    const afterBatch = await readLines(file);
    expect(afterBatch.length).toBeGreaterThan(0);
    expect(afterBatch).toEqual(written.slice(0, afterBatch.length).map((l) => l.trim()));
    destination.flushSync();
    expect(await readLines(file)).toEqual(written.map((l) => l.trim()));
    destination.close();
  });

  it('writes a partial batch without being asked', async () => {
    const file = path.join(dir, 'timer.log');
    const destination = createLogDestination(file, { flushMs: 20 });
    destination.write('{"alone":true}\n');
    await eventually(async () => (await readLines(file)).length === 1);
    destination.close();
  });

  it.each(['exit', 'throw', 'return'] as const)('loses no line when the process ends by %s', async (how) => {
    const file = path.join(dir, `${how}.log`);
    const code = await childWriting(file, 5000, how);
    expect(code).toBe(how === 'throw' ? 1 : 0);
    expect(await readLines(file)).toEqual(lines(5000).map((l) => l.trim()));
  });
});
