import { describe, expect, it } from 'vitest';
import { exactKeys, isKeyLine, keyHash, normalizeLiteral, queryKeys } from '../../database-search/normalize.ts';
import { likePattern } from '../../database-search/run-search.ts';

describe('normalizeLiteral masks what differs between machines', () => {
  it.each([
    [
      'unix paths with line and column',
      'at Object.<anonymous> (/home/alice/app/index.js:12:5)',
      'at object.<anonymous> (<path>)',
    ],
    [
      'windows paths',
      String.raw`Error: ENOENT: no such file or directory, open 'C:\Users\Bob\proj\config.json'`,
      'enoent: no such file or directory, open <path>',
    ],
    ['windows paths with forward slashes', 'open C:/Users/bob/x.txt failed', 'open <path> failed'],
    [
      'program files',
      String.raw`"C:\Program Files (x86)\nodejs\node.exe" is not recognized`,
      '<path> is not recognized',
    ],
    ['home-relative and dot-relative paths', 'see ~/.npm/_logs/debug.log and ./src/app.ts', 'see <path> and <path>'],
    ['relative file paths with lines', '--> src/main.rs:4:20', '--> <path>'],
    ['file:line references', 'at com.example.App.main(App.java:14)', 'at com.example.app.main(<path>)'],
    ['ipv4 with port', 'connect ECONNREFUSED 127.0.0.1:5432', 'connect econnrefused <ip>:<n>'],
    ['ipv6 loopback with port', 'connect ECONNREFUSED ::1:5432', 'connect econnrefused <ip>:<n>'],
    [
      'bracketed ipv6',
      'dial tcp [::1]:6379: connect: connection refused',
      'dial tcp <ip>:<n>: connect: connection refused',
    ],
    ['localhost', 'could not connect to localhost:8080', 'could not connect to <ip>:<n>'],
    ['urls', 'GET https://registry.npmjs.org/left-pad failed', 'get <url> failed'],
    ['uuids', 'job 550e8400-e29b-41d4-a716-446655440000 failed', 'job <uuid> failed'],
    ['iso timestamps', '2024-03-01T12:34:56.789Z ERROR boom', '<time> error boom'],
    ['clock times', '[12:01:02,123] WARN slow', '[<time>] warn slow'],
    ['hex addresses', 'segfault at 0x7ffd5c3e8a10 ip 0000556b2c1d4e3f', 'segfault at <hex> ip <hex>'],
    ['container and commit ids', 'in use by container 3f4e1a2b9c0d', 'in use by container <hex>'],
    ['versions', 'requires node v18.17.1 (found 16.20.2)', 'requires node v<ver> (found <ver>)'],
    ['versions glued to names', 'python3.11/site-packages', 'python<ver>/site-packages'],
    ['pre-release versions', 'react@19.0.0-rc.1 peer', 'react@<ver> peer'],
    ['pids and ports named as such', 'pid 4242 on port 3000', 'pid <n> on port <n>'],
    ['python line numbers', 'File "/srv/app/main.py", line 42, in <module>', 'file <path>, line <n>, in <module>'],
    ['long numbers', 'Killed process 123456 (node)', 'killed process <n> (node)'],
    [
      'durations and sizes',
      'Timeout of 2000ms exceeded after 1.5s, 512MB used',
      'timeout of <n>ms exceeded after <ver>s, <n>mb used',
    ],
    [
      'quotes of every kind',
      'Cannot find module ‘express’ or "lodash" or `chalk`',
      'cannot find module express or lodash or chalk',
    ],
    ['space, tabs and blank lines', '  Error:\tboom  \r\n\r\n   at   x  ', 'error: boom\nat x'],
    ['NUL and control characters', 'bad\u0000byte\u0007here', 'bad byte here'],
    [
      'severity words that start a line',
      'FATAL:  sorry, too many clients already\nwarning: retrying',
      'sorry, too many clients already\nretrying',
    ],
    [
      'host names shown with their address',
      'connection to server at "db.internal" (10.1.2.3), port 6432 failed',
      'connection to server at <ip> (<ip>), port <n> failed',
    ],
    [
      'java thread names',
      'Exception in thread "pool-1-thread-3" java.lang.OutOfMemoryError',
      'exception in thread <thread> java.lang.outofmemoryerror',
    ],
    [
      'slash dates and nginx connection numbers',
      '2025/01/17 22:04:09 [error] 88#88: *7 connect() failed',
      '<time> <time> [error] 88#88: *<n> connect() failed',
    ],
  ])('%s', (_name, input, expected) => {
    expect(normalizeLiteral(input)).toBe(expected);
  });

  it.each([
    ['ports differ', 'Error: connect ECONNREFUSED 127.0.0.1:5432', 'Error: connect ECONNREFUSED 127.0.0.1:5433'],
    ['ipv4 and ipv6 loopback', 'Error: connect ECONNREFUSED 127.0.0.1:5432', 'Error: connect ECONNREFUSED ::1:5432'],
    [
      'ipv4 and ipv6 any address',
      'listen EADDRINUSE: address already in use :::3000',
      'listen EADDRINUSE: address already in use 0.0.0.0:8080',
    ],
    [
      'severity as printed by different clients',
      'FATAL:  password authentication failed for user "app"',
      'error: password authentication failed for user "app"',
    ],
    [
      'OS paths',
      "Cannot find module '/home/a/app/dist/main.js'",
      "Cannot find module 'C:\\Users\\b\\app\\dist\\main.js'",
    ],
    [
      'temp dirs',
      "EACCES: permission denied, mkdir '/tmp/npm-1234-abcd/x'",
      "EACCES: permission denied, mkdir '/var/folders/xy/T/npm-99/x'",
    ],
    [
      'Go trace line numbers',
      'main.main()\n\t/home/u/go/src/app/main.go:12 +0x1d',
      'main.main()\n\t/build/app/main.go:57 +0x2f',
    ],
    [
      'case and quotes',
      "TypeError: Cannot read properties of undefined (reading 'map')",
      'typeerror: cannot read properties of undefined (reading "map")',
    ],
  ])('makes variants equal: %s', (_name, a, b) => {
    expect(normalizeLiteral(a)).toBe(normalizeLiteral(b));
  });

  it.each([
    ['exit codes', 'exited with code 1', 'exited with code 137'],
    ['errno codes', 'Error: ENOENT', 'Error: EACCES'],
    ['error classes', 'TypeError: x is not a function', 'RangeError: x is not a function'],
    ['HTTP statuses', 'Request failed with status code 404', 'Request failed with status code 500'],
    ['TypeScript error codes', 'error TS2345: Argument', 'error TS2322: Argument'],
  ])('keeps what tells errors apart: %s', (_name, a, b) => {
    expect(normalizeLiteral(a)).not.toBe(normalizeLiteral(b));
  });

  it('is idempotent', () => {
    const once = normalizeLiteral('Error: connect ECONNREFUSED 127.0.0.1:5432 at /x/y.js:1:2 (v18.1.0)');
    expect(normalizeLiteral(once)).toBe(once);
  });
});

describe('exactKeys', () => {
  it('holds the whole text and each line that can identify an error alone', () => {
    expect(exactKeys('keyerror: revenue\nindexer = self.columns.get_loc(key)\nmain.main()')).toEqual([
      'keyerror: revenue\nindexer = self.columns.get_loc(key)\nmain.main()',
      'keyerror: revenue',
      'indexer = self.columns.get_loc(key)',
    ]);
  });

  it('holds a short single-line text whole, and nothing for empty text', () => {
    expect(exactKeys('enospc')).toEqual(['enospc']);
    expect(exactKeys('')).toEqual([]);
  });

  it.each([
    ['a stack frame', 'at tcpconnectwrap.afterconnect [as oncomplete] (node:net:<n>:<n>)'],
    ['a python frame', 'file <path>, line <n>, in __getitem__'],
    ['a traceback header', 'traceback (most recent call last):'],
    ['a goroutine header', 'goroutine 1 [running]:'],
    ['a line of placeholders', '<path> +<hex> <ip>:<n>'],
    ['a line of one word', 'segmentationfault'],
    ['a short line', 'err! code x'],
  ])('leaves out %s', (_name, line) => {
    expect(isKeyLine(line)).toBe(false);
    expect(exactKeys(`error: boom happened\n${line}`)).not.toContain(line);
  });

  it('counts characters, not UTF-16 units, like SQL length()', () => {
    expect(isKeyLine('ab cd 😀😀😀😀😀')).toBe(false);
    expect(isKeyLine('ab cd 😀😀😀😀😀😀')).toBe(true);
  });

  it('hashes keys as md5 hex', () => {
    expect(keyHash('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
  });
});

describe('queryKeys', () => {
  it('adds the runs of words left when a line loses up to 8 words at either end, so pasted log lines still match', () => {
    const keys = queryKeys(
      normalizeLiteral('[2024-01-01 10:00:00] (error) MISCONF Redis is configured to save (pid 7)'),
    );
    expect(keys).toContain('misconf redis is configured to save');
    expect(keys).toContain('misconf redis is configured to save (pid <n>)');
    expect(keys).toContain('[<time>] (error) misconf redis');
    expect(keys).not.toContain('to save');
  });

  it('does not drop more than 8 words from either end of a line', () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${'x'.repeat(i % 3)}ord${String.fromCharCode(97 + i)}`);
    const keys = queryKeys(words.join(' '));
    expect(keys).toContain(words.slice(8, 12).join(' '));
    expect(keys).not.toContain(words.slice(9, 12).join(' '));
    expect(keys).not.toContain(words.slice(8, 11).join(' '));
  });

  it('keeps the stored keys of the text', () => {
    const text = normalizeLiteral(
      'Error: connect ECONNREFUSED ::1:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)',
    );
    expect(queryKeys(text)).toEqual(expect.arrayContaining(exactKeys(text)));
  });

  it("is not matched by the line Node prints above every unhandled 'error' event", () => {
    const keys = queryKeys(
      normalizeLiteral(
        "events.js:72\n        throw er; // Unhandled 'error' event\n              ^\nError: CERT_HAS_EXPIRED",
      ),
    );
    expect(keys).not.toContain('throw er; // unhandled error event');
    expect(exactKeys(normalizeLiteral("throw er; // Unhandled 'error' event\nError: x"))).toContain(
      'throw er; // unhandled error event',
    );
  });
});
describe('likePattern', () => {
  it('escapes LIKE wildcards and refuses text too short for trigrams', () => {
    expect(likePattern('err_module_not_found 100%')).toBe(String.raw`%err\_module\_not\_found 100\%%`);
    expect(likePattern(String.raw`a\b`)).toBe(String.raw`%a\\b%`);
    expect(likePattern('ab')).toBeNull();
  });
});
