/**
 * Logs a person reads and logs a program reads (infra/logger.ts): on a
 * terminal the default logger prints readable lines (pino-pretty); piped, it
 * prints JSON lines. The terminal is a real pseudo-terminal from util-linux's
 * `script`, so the process sees `isTTY` as it would in a shell.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let dir: string;
let probe: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ak-termlogs-'));
  probe = path.join(dir, 'probe.ts');
  await writeFile(
    probe,
    `
    import { createLogger, infoLineWriter } from ${JSON.stringify(path.resolve('infra/logger.ts'))};
    const logger = createLogger('info', 'api');
    logger.info({ port: 4321 }, 'api listening');
    infoLineWriter(logger, 'request')(',"route":"/problems/:id","status":200');
    logger.info({ authorization: 'Bearer ' + 'x'.repeat(43) }, 'with a header');
  `,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the default logger', () => {
  it('prints readable lines with level, name and message on a terminal, secrets still redacted', async () => {
    const command = [process.execPath, probe].map((part) => `'${part}'`).join(' ');
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], { env: { ...process.env, TERM: 'xterm' } });
    // Colour codes off, so the text is compared as a person sees it.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes removed here.
    const text = stdout.replace(/\x1b\[[0-9;]*m/g, '').replaceAll('\r', '');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(api\): api listening\n {4}port: 4321$/m);
    expect(text).toMatch(/INFO \(api\): request\n {4}route: "\/problems\/:id"\n {4}status: 200/);
    expect(text).toContain('authorization: "[redacted]"');
    expect(text).not.toContain('{"level"');
    expect(text).not.toContain('x'.repeat(43));
  });

  it('prints one JSON object a line when its output is not a terminal', async () => {
    const { stdout } = await run(process.execPath, [probe]);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      { level: 30, name: 'api', port: 4321, msg: 'api listening' },
      { level: 30, name: 'api', route: '/problems/:id', status: 200, msg: 'request' },
      { level: 30, name: 'api', authorization: '[redacted]', msg: 'with a header' },
    ]);
  });
});
