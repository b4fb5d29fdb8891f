/**
 * The rebuild's writer threads (projections/publish-pool.ts) take tasks in
 * messages of several records. A message that cannot be sent must answer
 * every task in it, not only the one whose call filled it, or a rebuild
 * waits for ever on the others; and the writer keeps taking tasks after.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadedWriter } from '../../projections/publish-pool.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the threaded projection writer', () => {
  it('answers every task of a message it cannot send with the error, and sends the next message', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ak-publish-pool-'));
    dirs.push(dir);
    const writer = createThreadedWriter(1);
    try {
      const file = (name: string) => ({
        relative: name,
        bytes: Buffer.from(`bytes of ${name}`),
        contentType: 'text/plain',
      });
      // Asked in one turn, the two go out in one message; a function in it cannot be cloned to the thread.
      const written = writer.write(dir, [file('a.txt')]);
      const unsendable = writer.remove(dir, [(() => 'b.txt') as unknown as string]);
      await expect(unsendable).rejects.toThrow(/could not be cloned/);
      await expect(written).rejects.toThrow(/could not be cloned/);
      // The next message is sent and carried out.
      await writer.write(dir, [file('c.txt')]);
      expect(await readFile(path.join(dir, 'c.txt'), 'utf8')).toBe('bytes of c.txt');
    } finally {
      await writer.close();
    }
  });
});
